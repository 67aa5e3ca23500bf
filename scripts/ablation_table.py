#!/usr/bin/env python3
"""Issue 15 ablation table: per class JaCoCo branch/line with DSE off and on, ratio of means and wins/losses, from a bench results.csv (usage: ablation_table.py results.csv)."""
import csv,sys,collections
rows=list(csv.DictReader(open(sys.argv[1])))
by=collections.defaultdict(dict)
for r in rows: by[r['class']][r['config']]=r
def f(x):
    try: return float(x)
    except: return None
groups={'dse':[], 'public':[]}
print("| class | branch off | branch on | line off | line on |")
print("|---|---|---|---|---|")
wins=collections.Counter()
for c,d in by.items():
    if 'off' not in d or 'on' not in d: continue
    g='dse' if c.startswith('dse.') else 'public'
    bo,bn=f(d['off']['jacoco_branch']),f(d['on']['jacoco_branch'])
    lo,ln=f(d['off']['jacoco_line']),f(d['on']['jacoco_line'])
    groups[g].append((bo,bn,lo,ln))
    k=(g,'win' if (bn or 0)>(bo or 0)+1e-9 else 'loss' if (bn or 0)<(bo or 0)-1e-9 else 'tie')
    wins[k]+=1
    fmt=lambda x: '–' if x is None else f"{100*x:.1f}"
    print(f"| {c} | {fmt(bo)} | {fmt(bn)} | {fmt(lo)} | {fmt(ln)} |")
for g,v in groups.items():
    vb=[x for x in v if x[0] is not None and x[1] is not None]
    if not vb: continue
    mo=sum(x[0] for x in vb)/len(vb); mn=sum(x[1] for x in vb)/len(vb)
    print(f"{g}: {len(vb)} classes with branches, mean JaCoCo branch off {100*mo:.1f} on {100*mn:.1f} ratio {mn/mo:.3f}; wins/ties/losses {wins[(g,'win')]}/{wins[(g,'tie')]}/{wins[(g,'loss')]}")
