package sample.text;

import org.apache.commons.lang3.StringUtils;
import sample.core.Counter;

/** Turns titles into URL slugs with Apache Commons Lang, at most `maxWords` words. */
public class Slug {
    private final int maxWords;

    public Slug(int maxWords) {
        this.maxWords = maxWords;
    }

    public String of(String title) {
        if (StringUtils.isBlank(title)) {
            return "";
        }
        String plain = StringUtils.stripAccents(title).toLowerCase();
        Counter words = new Counter(Math.max(1, maxWords));
        StringBuilder out = new StringBuilder();
        for (String word : StringUtils.split(plain, " -_")) {
            String kept = StringUtils.getDigits(word).isEmpty() ? StringUtils.strip(word, ".,;:!?") : word;
            if (kept.isEmpty()) {
                continue;
            }
            if (!words.increment()) {
                break;
            }
            if (out.length() > 0) {
                out.append('-');
            }
            out.append(kept);
        }
        return out.toString();
    }
}
