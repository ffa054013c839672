/**
 * A real small disk for tests of a full disk: a tmpfs mounted on a temp dir. Mounting needs root
 * (CAP_SYS_ADMIN); where it is not allowed, `mountSmallDisk` says why and tests that need it skip.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Bytes still free for an unprivileged writer. */
  free(): number;
  /** Fills the disk until only `leave` bytes are free; returns a function that frees it again. */
  fill(leave: number): () => void;
  /** Remounts it read-only: every write then fails with EROFS, for root too. */
  makeReadOnly(): void;
  unmount(): void;
}

/** Why a tmpfs cannot be mounted here, or null when it can. */
export function smallDiskUnavailable(): string | null {
  const disk = tryMount(1024 * 1024);
  if (typeof disk === 'string') return disk;
  disk.unmount();
  return null;
}

export function mountSmallDisk(bytes: number): SmallDisk {
  const disk = tryMount(bytes);
  if (typeof disk === 'string') throw new Error(disk);
  return disk;
}

function tryMount(bytes: number): SmallDisk | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs here (needs root): ${(error as Error).message.split('\n')[0]}`;
  }
  const free = () => {
    const stats = fs.statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    free,
    fill(leave) {
      const filler = path.join(dir, `filler-${Date.now()}`);
      const fd = fs.openSync(filler, 'w');
      const block = Buffer.alloc(64 * 1024, 1);
      try {
        while (free() > leave) fs.writeSync(fd, block, 0, Math.min(block.length, free() - leave));
      } finally {
        fs.closeSync(fd);
      }
      return () => fs.rmSync(filler, { force: true });
    },
    makeReadOnly() {
      execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'pipe' });
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
