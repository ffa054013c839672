import type Database from 'better-sqlite3';
import { expect } from 'vitest';

/**
 * FTS5's own check of both search indexes, including against the rows their views give (`rank` 1: for
 * an external-content table, without it only the index's internal structure is checked). It fails when
 * an index holds a row the view leaves out, lacks one it gives, or was handed other values to 'delete'
 * than it indexed.
 */
export function expectIndexesIntact(db: Database.Database): void {
  for (const table of ['messages_fts', 'messages_trigram']) {
    expect(() => db.prepare(`INSERT INTO ${table} (${table}, rank) VALUES ('integrity-check', 1)`).run(), table).not.toThrow();
  }
}
