/**
 * Denials by the operating system count as guard refusals (the sandbox's layer 3).
 *
 * <p>The workers and verification runs are sandboxed (Landlock; a read-only root or another uid
 * where it is missing): a write outside the scratch directory that no guard saw fails there with
 * EACCES, EPERM or EROFS. The user runs the written tests without a sandbox, where the same call
 * succeeds, so a test that expects the failure must never be written: a statement whose exception
 * is such a denial, however the library wrapped it, is cut as a guarded one ({@code Executor}), and
 * a verified test during which one was recorded fails ({@code RunTests}).
 *
 * <p>A denial is an {@link AccessDeniedException}, or an IOException (a FileSystemException's reason,
 * or the message, as {@code FileNotFoundException("/x (Permission denied)")} of java.io) that says
 * "Permission denied", "Operation not permitted" or "Read-only file system", on a path outside the
 * scratch directory or on no known path. One on a scratch path is the test's own doing (a file it
 * made read-only) and behaves the same for the user, except EPERM ("Operation not permitted"): the
 * sandbox's seccomp filter refuses every change of mode, owner, times and extended attributes, in
 * scratch too, and the user's run would succeed, so an EPERM counts wherever it is.
 */
package suitesmith.rt;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

final class Denials {
    private Denials() {}

    /** The strerror texts of EACCES, EPERM and EROFS, as the JDK puts them in its exceptions. */
    static final String[] REASONS = {"Permission denied", "Operation not permitted", "Read-only file system"};

    /** How deep {@link #find} looks into causes and suppressed exceptions, and how many it looks at. */
    static final int MAX_DEPTH = 8;

    static final int MAX_SEEN = 64;

    /** Whether {@code t} itself reports a denial (on any path). */
    static boolean isDenial(Throwable t) {
        if (t instanceof AccessDeniedException) return true;
        if (!(t instanceof IOException)) return false;
        String text = t instanceof FileSystemException ? ((FileSystemException) t).getReason() : null;
        if (text == null) text = safeMessage(t);
        if (text == null) return false;
        for (String r : REASONS) {
            if (text.contains(r)) return true;
        }
        return false;
    }

    /** Whether {@code t} is an EPERM denial, which the sandbox makes in scratch too (class comment). */
    static boolean isEperm(Throwable t) {
        if (!(t instanceof IOException)) return false;
        String text = t instanceof FileSystemException ? ((FileSystemException) t).getReason() : null;
        if (text == null) text = safeMessage(t);
        return text != null && text.contains(REASONS[1]);
    }

    /** Whether the denial {@code t} counts as a refusal: EPERM anywhere, else outside scratch. */
    static boolean counts(Throwable t) {
        return isEperm(t) || outsideScratch(pathOf(t));
    }

    /** The path a denial names, when it names one. */
    static String pathOf(Throwable t) {
        if (t instanceof FileSystemException) return ((FileSystemException) t).getFile();
        if (t instanceof FileNotFoundException) {
            String m = safeMessage(t);
            int paren = m == null ? -1 : m.lastIndexOf(" (");
            if (paren > 0) return m.substring(0, paren);
        }
        return null;
    }

    /** Whether a denial on {@code path} (null: unknown) counts: not on a scratch path. */
    static boolean outsideScratch(String path) {
        if (path == null) return true;
        try {
            return !Guards.entryInScratch(new File(path));
        } catch (RuntimeException e) {
            return true;
        }
    }

    /**
     * If {@code e} is a denial outside the scratch directory (its own path, else {@code fallback}),
     * records it as a refusal of {@code what}.
     */
    static void recordIfDenied(IOException e, String what, String fallback) {
        if (!isDenial(e)) return;
        String path = pathOf(e);
        if (!isEperm(e) && !outsideScratch(path != null ? path : fallback)) return;
        Guards.recordRefusal(what + ": " + describe(e));
    }

    /**
     * The first denial outside the scratch directory in {@code t}, its causes and suppressed
     * exceptions (breadth first, bounded, cycles skipped), described; null when there is none.
     */
    static String find(Throwable t) {
        if (t == null) return null;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        ArrayDeque<Object[]> queue = new ArrayDeque<Object[]>();
        queue.add(new Object[] {t, 0});
        while (!queue.isEmpty() && seen.size() < MAX_SEEN) {
            Object[] next = queue.poll();
            Throwable x = (Throwable) next[0];
            int depth = (Integer) next[1];
            if (x == null || !seen.add(x)) continue;
            try {
                if (isDenial(x) && counts(x)) return describe(x);
                if (depth >= MAX_DEPTH) continue;
                queue.add(new Object[] {x.getCause(), depth + 1});
                for (Throwable s : x.getSuppressed()) queue.add(new Object[] {s, depth + 1});
            } catch (RuntimeException | LinkageError odd) {
                // A throwable of the code under test whose getCause or getMessage fails: not a denial.
            }
        }
        return null;
    }

    /** How a denial shows in the refusal. */
    static String describe(Throwable t) {
        String m = safeMessage(t);
        return "denied by the system: " + t.getClass().getName() + (m == null ? "" : " " + m);
    }

    /** getMessage is the thrower's code: it may throw itself. */
    private static String safeMessage(Throwable t) {
        try {
            return t.getMessage();
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
