import { afterEach } from "vitest";

// On two loaded cores a test file's worker can stay busy long enough that Vitest's own report of a
// finished test ("onTaskUpdate") times out and counts as an unhandled error of that file, failing a
// green run (vitest-dev/vitest#6479). Yielding one turn of the event loop after each test lets those
// messages go out.
afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
