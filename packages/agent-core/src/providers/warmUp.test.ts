import { describe, expect, it } from 'vitest';
import { warmFetch, warmProvider } from './warmUp.ts';

describe('warming a provider up', () => {
  it("loads the SDK through the provider's own import, once per call, and never rejects when it fails", async () => {
    let imports = 0;
    await expect(warmProvider(() => (imports++, Promise.reject(new Error('no such module'))))).resolves.toBeUndefined();
    expect(imports).toBe(1);
  });

  it("fetches through Node's fetch without the network, once per process", async () => {
    const first = warmFetch();
    expect(warmFetch()).toBe(first);
    await expect(first).resolves.toBeUndefined();
  });
});
