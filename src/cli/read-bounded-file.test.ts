import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBoundedFile } from './read-bounded-file.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-bounded-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('readBoundedFile: the type and size before a byte is read', () => {
  it('reads a small file', async () => {
    writeFileSync(join(folder, 'small.json'), '{"a":1}');
    expect(await readBoundedFile(join(folder, 'small.json'), 1024)).toEqual({ text: '{"a":1}' });
  });

  it('refuses a file over the limit unread, however large (50 MB, sparse)', async () => {
    const path = join(folder, 'huge.json');
    writeFileSync(path, '');
    truncateSync(path, 50 * 1024 * 1024);
    expect(await readBoundedFile(path, 1024 * 1024)).toEqual({
      problem: 'the file is 52428800 bytes; at most 1048576 are read',
    });
  });

  it('refuses a FIFO without waiting for a writer, a device and a directory', async () => {
    const fifo = join(folder, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await readBoundedFile(fifo, 1024)).toEqual({ problem: 'is not a regular file (a FIFO)' });
    expect(await readBoundedFile('/dev/zero', 1024)).toEqual({ problem: 'is not a regular file (a device)' });
    expect(await readBoundedFile(folder, 1024)).toEqual({ problem: 'is not a regular file (a directory)' });
  });

  it('says why a missing file cannot be read', async () => {
    const read = await readBoundedFile(join(folder, 'missing.json'), 1024);
    expect(read).toMatchObject({ problem: expect.stringMatching(/^cannot be read: ENOENT/) });
  });
});
