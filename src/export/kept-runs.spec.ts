import { MAX_RUNS, Run, RunKeeper, RunSplitter } from './kept-runs';

const names = (count: number, prefix = 'f') =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(6, '0')}`);

function split(features: Array<[string, number]>, generation: unknown = 1): Run[] | null {
  const splitter = new RunSplitter();
  for (const [name, stamp] of features) splitter.add(name, stamp, generation);
  return splitter.runs;
}

describe('RunSplitter', () => {
  it('covers the features with runs of consecutive ones, in order, each at most 256 long', () => {
    const all = names(3000);
    const runs = split(all.map((name) => [name, 0]))!;
    expect(runs.length).toBeGreaterThan(3000 / 256);
    expect(runs[0].first).toBe(all[0]);
    // Each run reaches to the next one's first feature (the last, to the end).
    const starts = runs.map((run) => all.indexOf(run.first));
    for (const [i, from] of starts.entries()) {
      expect(from).toBeGreaterThan(i > 0 ? starts[i - 1] : -1);
      expect((starts[i + 1] ?? all.length) - from).toBeLessThanOrEqual(256);
    }
  });

  it('ends runs where the names say, so a feature added changes its own run only', () => {
    const all = names(2000);
    const before = split(all.map((name) => [name, 0]))!;
    const added = [...all.slice(0, 1000), 'f-000999-new', ...all.slice(1000)];
    const after = split(added.map((name) => [name, 0]))!;
    const signatures = new Set(before.map((run) => run.signature));
    const changed = after.filter((run) => !signatures.has(run.signature));
    // Its own run, and the one after it should the new name end a run.
    expect(changed.length).toBeGreaterThanOrEqual(1);
    expect(changed.length).toBeLessThanOrEqual(2);
    expect(after.length - before.length).toBeLessThanOrEqual(1);
  });

  it('signs the names, the stamps and the generation', () => {
    const base = split([
      ['a', 1],
      ['b', 2],
    ])!;
    const other = [
      split([
        ['a', 1],
        ['b', 3],
      ]),
      split([
        ['a', 1],
        ['c', 2],
      ]),
      split([['a', 1]]),
      split(
        [
          ['a', 1],
          ['b', 2],
        ],
        2,
      ),
    ];
    for (const runs of other) expect(runs![0].signature).not.toBe(base[0].signature);
    expect(
      split([
        ['a', 1],
        ['b', 2],
      ])![0].signature,
    ).toBe(base[0].signature);
  });

  it('gives no runs without a generation, or for more than MAX_RUNS runs', () => {
    expect(split([['a', 1]], null)).toBeNull();
    expect(split(names(MAX_RUNS * 256 + 1).map((name) => [name, 0]))).toBeNull();
  });
});

describe('RunKeeper', () => {
  const each = (bytes: number) => ({ environments: bytes, strategies: bytes, tags: bytes });
  const runs: Run[] = [
    { first: 'a', signature: 's1' },
    { first: 'c', signature: 's2' },
    { first: 'd', signature: 's3' },
  ];

  /** Feeds one list's rows as the cold export does: the feature first, then the item's text. */
  function feed(keeper: RunKeeper, rows: Array<[string, string, string?]>): void {
    for (const [feature, item, context] of rows) {
      const recording = keeper.next(feature);
      if (context) recording?.contextNames.add(context);
      keeper.add(item);
    }
  }

  it('keeps each stale run with its items per list, in order, and what they name', () => {
    const keeper = new RunKeeper(runs, new Set(['a', 'd']));
    keeper.start('environments');
    feed(keeper, [
      ['a', 'ea'],
      ['b', 'eb'],
      ['c', 'ec'],
      ['e', 'ee'],
    ]);
    keeper.start('strategies');
    feed(keeper, [
      ['b', 'sb1', 'region'],
      ['b', 'sb2'],
      ['c', 'sc', 'other'],
    ]);
    keeper.start('tags');
    const recording = keeper.next('f');
    recording?.tagTypes.add('simple');
    keeper.add('tf');
    expect(keeper.done()).toEqual([
      {
        first: 'a',
        signature: 's1',
        environments: 'ea,eb',
        strategies: 'sb1,sb2',
        tags: '',
        names: '[["region"],[],[]]',
      },
      {
        first: 'd',
        signature: 's3',
        environments: 'ee',
        strategies: '',
        tags: 'tf',
        names: '[[],[],["simple"]]',
      },
    ]);
  });

  it('gives no record for a run that is current', () => {
    const keeper = new RunKeeper(runs, new Set(['a']));
    keeper.start('strategies');
    expect(keeper.next('c')).toBeNull();
    keeper.add('sc');
    expect(keeper.done().map((run) => run.first)).toEqual(['a']);
  });

  it('past its bytes, drops the run being gathered and those after it, but not the first', () => {
    const keeper = new RunKeeper(runs, new Set(['a', 'c', 'd']), each(4));
    keeper.start('environments');
    // 'ec' passes the room: 'c' and every run after it are dropped.
    feed(keeper, [
      ['a', 'ea'],
      ['c', 'ec'],
      ['d', 'ed'],
    ]);
    keeper.start('strategies');
    // 'a' passes it alone, but it is the first stale run: it is kept whole.
    feed(keeper, [
      ['a', 'sa-long'],
      ['c', 'sc'],
    ]);
    keeper.start('tags');
    feed(keeper, [
      ['b', 'tb'],
      ['d', 'td'],
    ]);
    expect(
      keeper.done().map((run) => [run.first, run.environments, run.strategies, run.tags]),
    ).toEqual([['a', 'ea', 'sa-long', 'tb']]);
  });

  it('bounds each list on its own, so that later lists do not drop what earlier ones kept', () => {
    const keeper = new RunKeeper(runs, new Set(['a', 'c', 'd']), each(8));
    for (const list of ['environments', 'strategies', 'tags'] as const) {
      keeper.start(list);
      feed(keeper, [
        ['a', `${list[0]}a`],
        ['c', `${list[0]}c`],
        ['d', `${list[0]}d`],
      ]);
    }
    // 9 bytes a list, 27 in all: each list passes 8 only at 'd'.
    expect(
      keeper.done().map((run) => [run.first, run.environments, run.strategies, run.tags]),
    ).toEqual([
      ['a', 'ea', 'sa', 'ta'],
      ['c', 'ec', 'sc', 'tc'],
    ]);
  });
});
