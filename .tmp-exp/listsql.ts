import 'reflect-metadata';
import Database from 'better-sqlite3';
import { FeatureListModel } from '../src/features/feature-list.model';
const fake: any = { options: { type: 'better-sqlite3' }, driver: {}, query: async () => [] };
const m: any = new FeatureListModel(fake, { follow: () => undefined } as any);
const sql: string = m.documentSql;
const db = new Database('/tmp/peer/new.sqlite', { readonly: true });
const st = db.prepare(sql);
const rows = db.prepare(m.rowsSql);
const t = (f: () => void) => { const a = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - a) / 1e6; };
const r: number[] = [], r2: number[] = [];
for (let i = 0; i < 15; i++) { r.push(t(() => st.get('default'))); r2.push(t(() => rows.all('default'))); }
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
console.log('document', med(r).toFixed(1), 'rows', med(r2).toFixed(1));
console.log(db.prepare('EXPLAIN QUERY PLAN ' + sql).all('default').map((x: any) => x.detail).join('\n'));
