package sample.core;

/** A bounded counter: counts up to a limit, then refuses. */
public class Counter {
    private final int limit;
    private int count;

    public Counter(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        this.limit = limit;
    }

    public boolean increment() {
        if (count >= limit) {
            return false;
        }
        count++;
        return true;
    }

    public int count() {
        return count;
    }

    public boolean isFull() {
        return count == limit;
    }

    public void reset() {
        count = 0;
    }
}
