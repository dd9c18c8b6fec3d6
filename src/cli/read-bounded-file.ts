import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * The text of a small regular file, or why it cannot be had. The type and size are checked before a byte
 * is read: a FIFO, a device (`/dev/zero`) or a directory is refused without blocking, and a file over
 * `maxBytes` is refused unread (at most `maxBytes + 1` bytes are ever read, should it grow meanwhile).
 * `O_NONBLOCK` keeps `open` itself from waiting for a FIFO's writer.
 */
export async function readBoundedFile(
  path: string,
  maxBytes: number,
): Promise<{ readonly text: string } | { readonly problem: string }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { problem: `cannot be read: ${messageOf(error)}` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { problem: `is not a regular file (${kindOf(stats)})` };
    if (stats.size > maxBytes)
      return { problem: `the file is ${stats.size} bytes; at most ${maxBytes} are read` };
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return { problem: `the file grew past ${maxBytes} bytes while it was read` };
    return { text: buffer.subarray(0, length).toString('utf8') };
  } catch (error) {
    return { problem: `cannot be read: ${messageOf(error)}` };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function kindOf(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isSocket(): boolean;
}): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'not a file';
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
