import type { DataSource, EntityManager } from 'typeorm';
import type { EventsService } from '../events/events.service';
import {
  FeatureListModel,
  KEEP_AT_MOST,
  listItemsReached,
  wholeDocument,
} from './feature-list.model';

const documentOf = (items: string) => Buffer.from(`{"features":[${items}]}`);

/** A MySQL-family data source whose every statement answers `rows`. */
function answering(rows: unknown[]): { dataSource: DataSource; sent: string[] } {
  const sent: string[] = [];
  const dataSource = {
    options: { type: 'mariadb' },
    serverDialect: 'mariadb',
    query: async (sql: string) => {
      sent.push(sql);
      return rows;
    },
  } as unknown as DataSource;
  return { dataSource, sent };
}

/** The model over `dataSource`, with an event log that is never written here. */
function modelOver(dataSource: DataSource): FeatureListModel {
  return new FeatureListModel(dataSource, { follow: () => undefined } as unknown as EventsService);
}

describe('wholeDocument: when the list falls back to rows', () => {
  it('takes the document whose items are shorter than what the server can hand over', () => {
    const document = documentOf('{"name":"a"}');
    expect(wholeDocument(document, 13)).toBe(document);
    expect(wholeDocument(document, 64 * 1024 * 1024)).toBe(document);
  });

  it('falls back when the items reach the bound (GROUP_CONCAT stopped there, cut short)', () => {
    expect(wholeDocument(documentOf('{"name":"a"}'), 12)).toBeNull();
    expect(wholeDocument(documentOf('{"name":"a"},{"na'), 17)).toBeNull();
  });

  it('falls back when the server answered NULL (a CONCAT past max_allowed_packet)', () => {
    expect(wholeDocument(null, 16 * 1024 * 1024)).toBeNull();
    expect(wholeDocument(null, null)).toBeNull();
  });

  it('takes any document when there is no bound (SQLite)', () => {
    const document = documentOf('{"name":"a"},{"name":"b"}');
    expect(wholeDocument(document, null)).toBe(document);
  });
});

describe('FeatureListModel.documentOf on MySQL', () => {
  it('answers null for a document that reached the bound the server reported', async () => {
    // mysql2 may hand a server variable over as a string.
    const cut = answering([{ document: documentOf('{"name":"a"},{"na'), max_bytes: '17' }]);
    await expect(modelOver(cut.dataSource).documentOf('p')).resolves.toBeNull();
    const nul = answering([{ document: null, max_bytes: 16777216 }]);
    await expect(modelOver(nul.dataSource).documentOf('p')).resolves.toBeNull();
  });

  it('answers the bytes as the server sent them when they are whole', async () => {
    const whole = documentOf('{"name":"a"}');
    const { dataSource, sent } = answering([{ document: whole, max_bytes: 16776192 }]);
    await expect(modelOver(dataSource).documentOf('p')).resolves.toBe(whole);
    // The statement bounds GROUP_CONCAT by max_allowed_packet and reports the bound it used.
    expect(sent[0]).toMatch(/^SET STATEMENT group_concat_max_len = @@max_allowed_packet - 1024/);
    expect(sent[0]).toContain('AS max_bytes');
  });
});

describe('FeatureListModel: keeping what a list wrote', () => {
  it('keeps items only after a list that found some missing, and at most KEEP_AT_MOST at once', async () => {
    const whole = documentOf('{"name":"a"}');
    const kept = answering([{ document: whole, max_bytes: 16776192, missing: '0' }]);
    await modelOver(kept.dataSource).documentOf('p');
    expect(kept.sent).toHaveLength(1);

    const missing = answering([{ document: whole, max_bytes: 16776192, missing: '2' }]);
    await modelOver(missing.dataSource).documentOf('p');
    expect(missing.sent).toHaveLength(2);
    expect(missing.sent[1]).toMatch(/^INSERT INTO feature_list_items /);
    expect(missing.sent[1]).toContain(`LIMIT ${KEEP_AT_MOST}`);
  });
});

describe('listItemsReached: which kept items a write makes stale', () => {
  it('names the changed feature, and both ends of a dependency', () => {
    expect(
      listItemsReached([
        { type: 'feature-strategy-add', featureName: 'b' },
        { type: 'feature-tagged', featureName: 'a' },
        { type: 'feature-dependency-added', featureName: 'c', data: { feature: 'p1' } },
        { type: 'feature-dependency-removed', featureName: 'c', preData: { feature: 'p2' } },
      ]),
    ).toEqual({ all: false, features: ['a', 'b', 'c', 'p1', 'p2'] });
  });

  it('names none for changes outside the items', () => {
    expect(
      listItemsReached([
        { type: 'feature-favorited', featureName: 'a' },
        { type: 'segment-updated' },
        { type: 'features-exported' },
      ]),
    ).toEqual({ all: false, features: [] });
  });

  it('reaches every item for a change without a feature, one reaching unnamed features, or an unknown one', () => {
    for (const change of [
      { type: 'environment-updated', environment: 'dev' },
      { type: 'features-imported' },
      { type: 'feature-deleted', featureName: 'a' },
      { type: 'feature-dependencies-removed', featureName: 'c' },
      { type: 'feature-dependency-added', featureName: 'c', data: {} },
      { type: 'something-new' },
    ]) {
      expect(listItemsReached([{ type: 'feature-tagged', featureName: 'a' }, change])).toEqual({
        all: true,
        features: [],
      });
    }
  });
});

describe('FeatureListModel.follow: what a write bumps, in its transaction', () => {
  async function followed(features: number): Promise<Array<[string, unknown[] | undefined]>> {
    const sent: Array<[string, unknown[] | undefined]> = [];
    const tx = {
      query: async (sql: string, params?: unknown[]) => void sent.push([sql, params]),
    } as unknown as EntityManager;
    const changes = Array.from({ length: features }, (_, i) => ({
      type: 'feature-revived',
      featureName: `f-${String(i).padStart(4, '0')}`,
    }));
    await modelOver(answering([]).dataSource).follow(tx, changes);
    return sent;
  }

  it("bumps the named features' stamps, one placeholder each", async () => {
    const [[sql, params], ...more] = await followed(2);
    expect(sql).toMatch(
      /^UPDATE features SET list_stamp = list_stamp \+ 1\s+WHERE name IN \(\?, \?\)$/,
    );
    expect(params).toEqual(['f-0000', 'f-0001']);
    expect(more).toEqual([]);
  });

  it('bumps the generation instead past 500 features, and nothing for no change', async () => {
    expect((await followed(500))[0][0]).toMatch(/^UPDATE features /);
    expect(await followed(501)).toEqual([
      ['UPDATE feature_list_generation SET generation = generation + 1 WHERE id = 1', undefined],
    ]);
    expect(await followed(0)).toEqual([]);
  });
});
