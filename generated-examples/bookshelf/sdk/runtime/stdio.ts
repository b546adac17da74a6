/**
 * Writing to stdout and stderr when the reader may go away (`cli … | head`). Node reports a closed
 * pipe as an `error` event (EPIPE) on the stream, which, unhandled, kills the process with a stack
 * trace. The bins (the generated CLI and MCP server, contractgen itself) write through `writeTo`:
 * once a stream's reader is gone, what would go to it is dropped, quietly, and the process ends
 * with the exit code of what it was doing.
 */

const gone = new WeakSet<NodeJS.WritableStream>();
const watched = new WeakSet<NodeJS.WritableStream>();
const onGone = new WeakMap<NodeJS.WritableStream, Array<() => void>>();

/** Errors that only say the reader has gone (or the stream was closed after it did). */
const CLOSED = new Set(["EPIPE", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);

function watch(stream: NodeJS.WritableStream): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on("error", (e: NodeJS.ErrnoException) => {
    const first = !gone.has(stream);
    gone.add(stream);
    // Any other write failure loses output too: the run cannot claim success.
    if (!CLOSED.has(e.code ?? "") && !process.exitCode) process.exitCode = 1;
    if (first) for (const handler of onGone.get(stream) ?? []) handler();
  });
}

/** Write `text` unless the stream's reader has gone. */
export function writeTo(stream: NodeJS.WritableStream, text: string): void {
  watch(stream);
  if (gone.has(stream) || (stream as { destroyed?: boolean }).destroyed) return;
  stream.write(text);
}

/** Run `handler` once, when the stream's reader goes away (e.g. stop serving a client that left). */
export function whenReaderGone(stream: NodeJS.WritableStream, handler: () => void): void {
  watch(stream);
  onGone.set(stream, [...(onGone.get(stream) ?? []), handler]);
}
