# Engine-only peak memory, old (16ce2b0, before issue 14) vs new, at a fixed evaluation budget.
while IFS=$'\t' read -r cls cp; do
  for b in 16ce2b0 m1; do
    r=$(python3 /work/res/hwm.py /work/bin/suitesmith-$b generate --classpath "$cp" --class "$cls" --evaluations 2000 --budget 600s --post-budget 600s --seed 1 --workers 1 --verify-runs 1 --out /tmp/m14/mem-$b-$cls)
    echo -e "$cls\t$b\t$r" >> /work/res/mem.tsv
  done
done < /work/res/public-list.txt
echo done >> /work/res/mem.tsv
