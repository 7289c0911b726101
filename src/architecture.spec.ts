import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';
import { TABLE_OWNERS } from './database/table-owners';

/*
 * The data layer's two rules, checked over the source text (no app is started):
 * 1. a table's name appears in SQL only in its owner's store files (table-owners.ts);
 * 2. a module never imports another module's entity: it calls what that module exports.
 */

const SRC = __dirname;
/** Folders that hold no module: shared pieces, and the migrations (snapshots of the schema). */
const SHARED = new Set(['common', 'config', 'database']);
/** Table-valued functions that follow FROM without being tables, and `DO UPDATE SET` (an upsert). */
const NOT_TABLES = new Set(['json_each', 'JSON_TABLE', 'dual', 'IF', 'SET']);
const SQL = /\b(SELECT|INSERT INTO|UPDATE|DELETE FROM|CREATE|DROP)\b/;
const TABLE_REFERENCE =
  /\b(?:FROM|JOIN|INTO|(?<!KEY |DO )UPDATE|TABLE(?: IF (?:NOT )?EXISTS)?)\s+(?:temp\.)?[`"]?([A-Za-z_]\w*)\b(?!\.)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The module folder a file belongs to (`features`, `auth`, …), or null for src/*.ts. */
function moduleOf(file: string): string | null {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0] : null;
}

/** A store or read model: the only kind of file that may hold SQL. */
function isStore(file: string): boolean {
  return /\.(store|model)\.ts$/.test(file);
}

/** The text of every string and template literal in a file (a template's `${}` parts kept raw). */
function literals(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text);
    else if (ts.isTemplateExpression(node)) found.push(node.getText(source));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The tables named in SQL literals of a source text. */
export function tablesInSql(text: string, fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const tables = new Set<string>();
  for (const literal of literals(source)) {
    if (!SQL.test(literal)) continue;
    for (const match of literal.matchAll(TABLE_REFERENCE)) {
      if (!NOT_TABLES.has(match[1])) tables.add(match[1]);
    }
  }
  return [...tables];
}

/** Relative imports of a source text, resolved to files. */
function importsOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const targets: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text.startsWith('.')
    ) {
      targets.push(`${resolve(dirname(file), statement.moduleSpecifier.text)}.ts`);
    }
  }
  return targets;
}

/** Every violation of the two rules in these files. */
export function violations(files: Array<{ path: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const where = relative(SRC, path);
    const module = moduleOf(path);
    for (const table of tablesInSql(text, path)) {
      const owner = TABLE_OWNERS[table];
      if (owner === undefined)
        found.push(`${where}: table ${table} has no owner in table-owners.ts`);
      else if (owner !== module || !isStore(path)) {
        found.push(`${where}: SQL names ${table}, whose SQL belongs in a store of ${owner}/`);
      }
    }
    if (module === null || SHARED.has(module)) continue;
    for (const target of importsOf(path, text)) {
      const targetModule = moduleOf(target);
      if (targetModule !== module && target.endsWith('.entity.ts')) {
        found.push(`${where}: imports ${relative(SRC, target)}, an entity of ${targetModule}/`);
      }
    }
  }
  return found;
}

describe('architecture', () => {
  const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('keeps each table in its owner’s stores and each entity in its module', () => {
    expect(violations(files)).toEqual([]);
  });

  it('names an existing module folder as the owner of every table', () => {
    const folders = new Set(files.map((file) => moduleOf(file.path)));
    const unknown = Object.entries(TABLE_OWNERS).filter(([, owner]) => !folders.has(owner));
    expect(unknown).toEqual([]);
  });

  describe('fails', () => {
    const file = (path: string, text: string) => ({ path: join(SRC, path), text });

    it('when a table’s name appears in SQL outside its owner’s store files', () => {
      const sql = 'const q = `SELECT id FROM feature_strategies WHERE x = ${y}`;';
      expect(violations([file('segments/segments.service.ts', sql)])).toEqual([
        'segments/segments.service.ts: SQL names feature_strategies, whose SQL belongs in a store of features/',
      ]);
      expect(violations([file('features/strategies.service.ts', sql)])).toHaveLength(1);
      expect(violations([file('features/strategies.store.ts', sql)])).toEqual([]);
    });

    it('when SQL names a table that has no owner', () => {
      expect(violations([file('a/b.store.ts', "q('DELETE FROM mystery WHERE 1')")])).toEqual([
        'a/b.store.ts: table mystery has no owner in table-owners.ts',
      ]);
    });

    it('when a module imports another module’s entity', () => {
      const text = "import { Feature } from '../features/feature.entity';";
      expect(violations([file('projects/projects.service.ts', text)])).toEqual([
        'projects/projects.service.ts: imports features/feature.entity.ts, an entity of features/',
      ]);
      expect(
        violations([file('features/features.store.ts', text.replace('../features', '.'))]),
      ).toEqual([]);
    });

    it('but not on words in prose or comments', () => {
      expect(
        tablesInSql("// SELECT x FROM features\nconst m = 'Could not find the features';"),
      ).toEqual([]);
    });
  });
});
