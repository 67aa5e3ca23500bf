package example;

/** A bounded stack of ints: the bundled example subject of the README. */
public class Stack {
    private final int[] items;
    private int size;

    public Stack(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        items = new int[capacity];
    }

    public void push(int value) {
        if (size == items.length) {
            throw new IllegalStateException("stack is full");
        }
        items[size++] = value;
    }

    public int pop() {
        if (isEmpty()) {
            throw new IllegalStateException("stack is empty");
        }
        return items[--size];
    }

    public int peek() {
        if (isEmpty()) {
            throw new IllegalStateException("stack is empty");
        }
        return items[size - 1];
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public int size() {
        return size;
    }

    /** Sum of the elements above a threshold; a loop with a nested branch. */
    public long sumAbove(int threshold) {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            if (items[i] > threshold) {
                sum += items[i];
            }
        }
        return sum;
    }

    public String describe() {
        switch (size) {
            case 0:
                return "empty";
            case 1:
                return "one";
            default:
                return size == items.length ? "full" : "some";
        }
    }
}
