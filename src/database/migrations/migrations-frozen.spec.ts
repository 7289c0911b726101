import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from '.';

const MIGRATION_FILE = /^\d{13}-[A-Za-z0-9-]+\.ts$/;
const files = readdirSync(__dirname).filter((file) => MIGRATION_FILE.test(file));

function importedModules(source: string): string[] {
  const specifiers = source.matchAll(
    /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g,
  );
  return [...specifiers].map((match) => match[1]);
}

// A shipped migration is a snapshot. If it imported application code (a helper, a permission list),
// changing that code later would silently change what the migration does on a new database.
describe('migrations are snapshots', () => {
  it.each(files)('%s imports nothing but typeorm', (file) => {
    const source = readFileSync(join(__dirname, file), 'utf8');
    expect(importedModules(source).filter((name) => name !== 'typeorm')).toEqual([]);
  });

  it('every migration file is listed in MIGRATIONS, in timestamp order', () => {
    const listed = MIGRATIONS.map((migration) => Number(/\d{13}$/.exec(migration.name)?.[0]));
    expect(listed).toEqual(files.map((file) => Number(file.slice(0, 13))).sort((a, b) => a - b));
  });
});
