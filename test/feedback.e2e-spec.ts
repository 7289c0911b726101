import { Feedback } from '../src/feedback/feedback.entity';
import { expectErrorRecord, serviceTokenWith, startTestApp, TestApp } from './support/test-app';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface FeedbackRecord {
  id: number;
  createdAt: string;
  category: string;
  userType: string | null;
  difficultyScore: number | null;
  positive: string | null;
  areasForImprovement: string | null;
}

describe('feedback', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const clientToken = async (type: 'client' | 'frontend'): Promise<string> => {
    const created = await t.admin
      .post('/api/admin/api-tokens', { tokenName: type, type, environment: 'development' })
      .expect(201);
    return created.body.secret as string;
  };

  const rowCount = async (): Promise<number> => t.dataSource.getRepository(Feedback).count();

  /** Posts through the API and returns the record it answered with. */
  const post = async (body: object): Promise<FeedbackRecord> =>
    (await t.admin.post('/feedback', body).expect(200)).body as FeedbackRecord;

  describe('POST /feedback', () => {
    it('stores a minimal body and answers 200 with all seven fields, null where not given', async () => {
      const before = Date.now();
      const res = await t.admin.post('/feedback', { category: 'general' }).expect(200);
      const after = Date.now();
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        id: expect.any(Number),
        createdAt: expect.stringMatching(ISO_MS),
        category: 'general',
        userType: null,
        difficultyScore: null,
        positive: null,
        areasForImprovement: null,
      });
      expect(Object.keys(res.body)).toHaveLength(7);
      const createdAt = Date.parse(res.body.createdAt);
      expect(createdAt).toBeGreaterThanOrEqual(before);
      expect(createdAt).toBeLessThanOrEqual(after);

      const stored = await t.dataSource
        .getRepository(Feedback)
        .findOneByOrFail({ id: res.body.id });
      expect(stored.createdAt.toISOString()).toBe(res.body.createdAt);
      expect(stored).toEqual(
        expect.objectContaining({
          category: 'general',
          userType: null,
          difficultyScore: null,
          positive: null,
          areasForImprovement: null,
        }),
      );
    });

    it('stores a full body and answers with exactly what was sent', async () => {
      const body = {
        category: 'onboarding',
        userType: 'developer',
        difficultyScore: 3.25,
        positive: 'Clear docs.\nFast API.',
        areasForImprovement: 'More examples, please',
      };
      const res = await t.admin.post('/feedback', body).expect(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        createdAt: expect.stringMatching(ISO_MS),
        ...body,
      });
      const listed = await t.admin.get('/api/admin/feedback?category=onboarding').expect(200);
      expect(listed.body).toEqual({ feedback: [res.body] });
    });

    it('treats explicit nulls like absent fields, and keeps 0 and empty optional strings', async () => {
      const nulls = await post({
        category: 'nulls',
        userType: null,
        difficultyScore: null,
        positive: null,
        areasForImprovement: null,
      });
      expect(nulls).toEqual(
        expect.objectContaining({
          userType: null,
          difficultyScore: null,
          positive: null,
          areasForImprovement: null,
        }),
      );
      const zero = await post({
        category: 'zero',
        userType: '',
        difficultyScore: 0,
        positive: '',
        areasForImprovement: '',
      });
      expect(zero).toEqual(
        expect.objectContaining({
          userType: '',
          difficultyScore: 0,
          positive: '',
          areasForImprovement: '',
        }),
      );
      const listed = await t.admin.get('/api/admin/feedback?category=zero').expect(200);
      expect(listed.body.feedback).toEqual([zero]);
    });

    it('keeps any finite score exactly, negative, fractional and large', async () => {
      for (const score of [-2, 0.1 + 0.2, 1e-7, 1.7976931348623157e308, 123456789.123456]) {
        const created = await post({ category: 'scores', difficultyScore: score });
        expect(created.difficultyScore).toBe(score);
      }
      const listed = await t.admin.get('/api/admin/feedback?category=scores').expect(200);
      expect(listed.body.feedback.map((f: FeedbackRecord) => f.difficultyScore).reverse()).toEqual([
        -2,
        0.1 + 0.2,
        1e-7,
        1.7976931348623157e308,
        123456789.123456,
      ]);
    });

    it('sends exactly one SQL statement, an INSERT, per submission once the token is known', async () => {
      await post({ category: 'warm-up' });
      const { result, count, statements } = await t.sql.measure(() =>
        t.admin.post('/feedback', { category: 'measured', difficultyScore: 1 }),
      );
      expect(result.status).toBe(200);
      expect(count).toBe(1);
      expect(statements[0]).toMatch(/^INSERT INTO/i);
    });

    const tooLong = (n: number) => 'x'.repeat(n);
    const invalidBodies: Array<[string, unknown, Array<{ path: string; message: string }>]> = [
      ['a missing category', {}, [{ path: '/body/category', message: 'category is required' }]],
      [
        'a null category',
        { category: null },
        [{ path: '/body/category', message: 'category must be a string' }],
      ],
      [
        'an empty category',
        { category: '' },
        [{ path: '/body/category', message: 'category must be 1 to 100 characters long' }],
      ],
      [
        'a category of 101 characters',
        { category: tooLong(101) },
        [{ path: '/body/category', message: 'category must be 1 to 100 characters long' }],
      ],
      [
        'a category that is a number',
        { category: 7 },
        [{ path: '/body/category', message: 'category must be a string' }],
      ],
      [
        'a category that is an array',
        { category: ['a'] },
        [{ path: '/body/category', message: 'category must be a string' }],
      ],
      [
        'a userType that is a number',
        { category: 'c', userType: 1 },
        [{ path: '/body/userType', message: 'userType must be a string' }],
      ],
      [
        'a userType of 101 characters',
        { category: 'c', userType: tooLong(101) },
        [{ path: '/body/userType', message: 'userType must be at most 100 characters long' }],
      ],
      [
        'a difficultyScore that is a numeric string',
        { category: 'c', difficultyScore: '3' },
        [
          {
            path: '/body/difficultyScore',
            message: 'difficultyScore must be a finite number or null',
          },
        ],
      ],
      [
        'a difficultyScore that is an object',
        { category: 'c', difficultyScore: { value: 3 } },
        [
          {
            path: '/body/difficultyScore',
            message: 'difficultyScore must be a finite number or null',
          },
        ],
      ],
      [
        'a difficultyScore that is a boolean',
        { category: 'c', difficultyScore: true },
        [
          {
            path: '/body/difficultyScore',
            message: 'difficultyScore must be a finite number or null',
          },
        ],
      ],
      [
        'a positive text of 10,001 characters',
        { category: 'c', positive: tooLong(10_001) },
        [{ path: '/body/positive', message: 'positive must be at most 10000 characters long' }],
      ],
      [
        'an areasForImprovement of 10,001 characters',
        { category: 'c', areasForImprovement: tooLong(10_001) },
        [
          {
            path: '/body/areasForImprovement',
            message: 'areasForImprovement must be at most 10000 characters long',
          },
        ],
      ],
      [
        'a positive text that is an object',
        { category: 'c', positive: { text: 'x' } },
        [{ path: '/body/positive', message: 'positive must be a string' }],
      ],
      [
        'an unknown property',
        { category: 'c', rating: 5 },
        [{ path: '/body/rating', message: 'rating is not an allowed property' }],
      ],
      [
        'an id and a createdAt, which the server sets',
        { category: 'c', id: 1, createdAt: '2025-01-01T00:00:00.000Z' },
        [
          { path: '/body/id', message: 'id is not an allowed property' },
          { path: '/body/createdAt', message: 'createdAt is not an allowed property' },
        ],
      ],
      [
        'properties named like members of Object.prototype',
        { category: 'c', toString: 'x', constructor: 1 },
        [
          { path: '/body/toString', message: 'toString is not an allowed property' },
          { path: '/body/constructor', message: 'constructor is not an allowed property' },
        ],
      ],
      [
        'several problems at once, one detail each',
        { userType: 5, difficultyScore: 'hard', positive: 1, areasForImprovement: [], extra: true },
        [
          { path: '/body/extra', message: 'extra is not an allowed property' },
          { path: '/body/category', message: 'category is required' },
          { path: '/body/userType', message: 'userType must be a string' },
          {
            path: '/body/difficultyScore',
            message: 'difficultyScore must be a finite number or null',
          },
          { path: '/body/positive', message: 'positive must be a string' },
          { path: '/body/areasForImprovement', message: 'areasForImprovement must be a string' },
        ],
      ],
    ];

    it.each(invalidBodies)(
      'answers 400 ValidationError to %s, and stores nothing',
      async (_what, body, details) => {
        const before = await rowCount();
        const res = await t.admin.post('/feedback', body as object);
        const record = expectErrorRecord(res, 400, 'ValidationError');
        expect(record.details).toEqual(expect.arrayContaining(details));
        expect(record.details).toHaveLength(details.length);
        expect(await rowCount()).toBe(before);
      },
    );

    it('answers 400 to a score that JSON parses to Infinity (1e400) or -Infinity', async () => {
      for (const raw of [
        '{"category":"c","difficultyScore":1e400}',
        '{"category":"c","difficultyScore":-1e400}',
      ]) {
        const res = await t.admin
          .post('/feedback')
          .set('content-type', 'application/json')
          .send(raw);
        expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
          {
            path: '/body/difficultyScore',
            message: 'difficultyScore must be a finite number or null',
          },
        ]);
      }
    });

    it('answers 400 to text with an unpaired surrogate, which UTF-8 cannot carry', async () => {
      const res = await t.admin
        .post('/feedback')
        .set('content-type', 'application/json')
        .send('{"category":"c","positive":"broken \\ud83d here"}');
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        {
          path: '/body/positive',
          message: 'positive must be valid Unicode text (it holds an unpaired surrogate)',
        },
      ]);
    });

    it('answers 400 to a body that is not a JSON object, and 415 to one that is not JSON', async () => {
      for (const raw of ['[]', '"general"', 'null']) {
        const res = await t.admin
          .post('/feedback')
          .set('content-type', 'application/json')
          .send(raw);
        expectErrorRecord(res, 400, 'ValidationError');
      }
      const text = await t.admin.post('/feedback').set('content-type', 'text/plain').send('great');
      expectErrorRecord(text, 415, 'ContentTypeError');
    });

    it('answers 401 without a token or with an unknown one, and stores nothing', async () => {
      const before = await rowCount();
      expectErrorRecord(
        await t.http.post('/feedback').send({ category: 'c' }),
        401,
        'AuthenticationRequired',
      );
      expectErrorRecord(
        await t.as('*:*.not-a-known-token-0000').post('/feedback', { category: 'c' }),
        401,
        'AuthenticationRequired',
      );
      // Authentication comes before validation: an invalid body without a token is still 401.
      expectErrorRecord(await t.http.post('/feedback').send({}), 401, 'AuthenticationRequired');
      expect(await rowCount()).toBe(before);
    });

    it('answers 403 to client and frontend tokens, and stores nothing', async () => {
      const before = await rowCount();
      for (const type of ['client', 'frontend'] as const) {
        const res = await t.as(await clientToken(type)).post('/feedback', { category: 'c' });
        expectErrorRecord(res, 403, 'PermissionError');
      }
      expect(await rowCount()).toBe(before);
    });

    it('accepts any admin-API token: a service token whose role holds no permission', async () => {
      const token = await serviceTokenWith(t, []);
      const res = await t.as(token).post('/feedback', { category: 'from-service' }).expect(200);
      expect(res.body.category).toBe('from-service');
    });
  });

  describe('Unicode text', () => {
    const emoji100 = '😀'.repeat(100);

    it('accepts a category of exactly 100 emoji and rejects 101', async () => {
      expect(emoji100.length).toBe(200); // UTF-16 units: the limit counts characters, not units
      const created = await post({ category: emoji100 });
      expect(created.category).toBe(emoji100);
      const listed = await t.admin
        .get('/api/admin/feedback')
        .query({ category: emoji100 })
        .expect(200);
      expect(listed.body.feedback).toEqual([created]);

      const res = await t.admin.post('/feedback', { category: '😀'.repeat(101) });
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([
        { path: '/body/category', message: 'category must be 1 to 100 characters long' },
      ]);
    });

    it('counts a variation selector as a character, as the database does', async () => {
      // "❤️" is U+2764 U+FE0F: two characters. 50 of them fit in 100, 51 do not.
      const created = await post({ category: '❤️'.repeat(50) });
      expect(created.category).toBe('❤️'.repeat(50));
      const res = await t.admin.post('/feedback', { category: '❤️'.repeat(51) });
      expectErrorRecord(res, 400, 'ValidationError');
    });

    it('stores emoji, CJK, combining marks and joiner sequences unchanged, without normalizing', async () => {
      const body = {
        category: 'ユーザー体験',
        userType: 'e\u0301quipe', // e + combining acute: kept decomposed
        difficultyScore: 2,
        positive: '很好用 👍🏽 — café (é) vs cafe\u0301; 👩‍👩‍👧‍👦; 한국어; עברית; \u0000 nul',
        areasForImprovement: 'Z\u0351\u0364\u036Ba\u0308\u0301lgo 🏳️‍🌈 𝕏 \t tabs \n lines',
      };
      const created = await post(body);
      expect(created).toEqual(expect.objectContaining(body));
      const listed = await t.admin
        .get('/api/admin/feedback')
        .query({ category: 'ユーザー体験' })
        .expect(200);
      expect(listed.body.feedback).toEqual([created]);
      expect(listed.body.feedback[0].userType).toBe('e\u0301quipe');
      expect(listed.body.feedback[0].userType).not.toBe('équipe');
    });

    it('accepts 10,000 emoji in each text field and returns them unchanged', async () => {
      const positive = '🚀'.repeat(10_000);
      const areasForImprovement = '漢'.repeat(10_000);
      const created = await post({ category: 'long-text', positive, areasForImprovement });
      expect(created.positive).toBe(positive);
      const listed = await t.admin.get('/api/admin/feedback?category=long-text').expect(200);
      expect(listed.body.feedback[0].positive).toBe(positive);
      expect(listed.body.feedback[0].areasForImprovement).toBe(areasForImprovement);
      const res = await t.admin.post('/feedback', { category: 'c', positive: `${positive}!` });
      expect(expectErrorRecord(res, 400, 'ValidationError').details?.[0].path).toBe(
        '/body/positive',
      );
    });
  });

  describe('GET /api/admin/feedback', () => {
    const at = (iso: string) => new Date(iso);

    /** Rows with chosen timestamps, inserted directly: the API always stamps "now". */
    const seed = async () => {
      await t.dataSource.getRepository(Feedback).clear();
      const rows = [
        { category: 'ux', createdAt: at('2024-01-01T00:00:00.000Z'), difficultyScore: 1 },
        { category: 'bugs', createdAt: at('2024-03-01T12:00:00.000Z'), difficultyScore: null },
        { category: 'ux', createdAt: at('2024-06-01T00:00:00.000Z'), difficultyScore: 2 },
        // Three in the same millisecond: ordered by id, newest (highest) first.
        { category: 'ux', createdAt: at('2024-06-01T00:00:00.001Z'), difficultyScore: 3 },
        { category: 'bugs', createdAt: at('2024-06-01T00:00:00.001Z'), difficultyScore: 4 },
        { category: 'ux', createdAt: at('2024-06-01T00:00:00.001Z'), difficultyScore: 5 },
        { category: 'docs', createdAt: at('2025-02-03T04:05:06.789Z'), difficultyScore: 6 },
      ];
      for (const row of rows) {
        await t.dataSource.getRepository(Feedback).insert({
          userType: null,
          positive: null,
          areasForImprovement: null,
          ...row,
        });
      }
    };

    beforeAll(seed);

    const scores = (res: { body: { feedback: FeedbackRecord[] } }) =>
      res.body.feedback.map((f) => f.difficultyScore);

    it('lists newest first, ties by id descending, with every field', async () => {
      const res = await t.admin.get('/api/admin/feedback').expect(200);
      expect(scores(res)).toEqual([6, 5, 4, 3, 2, null, 1]);
      expect(res.body.feedback[0]).toEqual({
        id: expect.any(Number),
        createdAt: '2025-02-03T04:05:06.789Z',
        category: 'docs',
        userType: null,
        difficultyScore: 6,
        positive: null,
        areasForImprovement: null,
      });
      const ids = res.body.feedback.slice(1, 4).map((f: FeedbackRecord) => f.id);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });

    it('filters by category and by since, inclusive, also combined', async () => {
      expect(scores(await t.admin.get('/api/admin/feedback?category=ux').expect(200))).toEqual([
        5, 3, 2, 1,
      ]);
      expect(
        scores(await t.admin.get('/api/admin/feedback?since=2024-06-01T00:00:00.001Z').expect(200)),
      ).toEqual([6, 5, 4, 3]);
      expect(
        scores(
          await t.admin
            .get('/api/admin/feedback')
            .query({ since: '2024-06-01T02:00:00+02:00', category: 'ux' })
            .expect(200),
        ),
      ).toEqual([5, 3, 2]);
      expect((await t.admin.get('/api/admin/feedback?category=nothing').expect(200)).body).toEqual({
        feedback: [],
      });
      expect(
        (await t.admin.get('/api/admin/feedback?since=2030-01-01T00:00:00Z').expect(200)).body,
      ).toEqual({ feedback: [] });
    });

    it('pages with limit and offset', async () => {
      const all = scores(await t.admin.get('/api/admin/feedback').expect(200));
      const pages: Array<number | null> = [];
      for (let offset = 0; offset < 9; offset += 3) {
        const page = await t.admin.get(`/api/admin/feedback?limit=3&offset=${offset}`).expect(200);
        expect(page.body.feedback.length).toBeLessThanOrEqual(3);
        pages.push(...scores(page));
      }
      expect(pages).toEqual(all);
      expect(scores(await t.admin.get('/api/admin/feedback?limit=2&offset=1').expect(200))).toEqual(
        [5, 4],
      );
      expect(scores(await t.admin.get('/api/admin/feedback?offset=100').expect(200))).toEqual([]);
      expect(scores(await t.admin.get('/api/admin/feedback?limit=1000').expect(200))).toHaveLength(
        7,
      );
    });

    it('answers at most 100 by default', async () => {
      const repository = t.dataSource.getRepository(Feedback);
      await repository.insert(
        Array.from({ length: 105 }, (_, i) => ({
          category: 'bulk',
          userType: null,
          difficultyScore: i,
          positive: null,
          areasForImprovement: null,
          createdAt: at('2023-01-01T00:00:00.000Z'),
        })),
      );
      try {
        const res = await t.admin.get('/api/admin/feedback?category=bulk').expect(200);
        expect(res.body.feedback).toHaveLength(100);
        expect(res.body.feedback[0].difficultyScore).toBe(104);
      } finally {
        await repository.delete({ category: 'bulk' });
      }
    });

    it('reads with one SQL statement', async () => {
      const { result, count } = await t.sql.measure(() =>
        t.admin.get('/api/admin/feedback?category=ux&since=2024-01-01T00:00:00Z&limit=2&offset=1'),
      );
      expect(result.status).toBe(200);
      expect(count).toBe(1);
    });

    const invalidQueries: Array<[string, string, string]> = [
      ['limit=0', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['limit=1001', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['limit=-5', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['limit=abc', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['limit=2.5', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['limit=1e2', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['limit=', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['limit=5&limit=6', '/query/limit', 'limit must be an integer from 1 to 1000'],
      ['offset=-1', '/query/offset', 'offset must be an integer of 0 or more'],
      ['offset=0x10', '/query/offset', 'offset must be an integer of 0 or more'],
      ['offset=99999999999999999', '/query/offset', 'offset must be an integer of 0 or more'],
      [
        'since=yesterday',
        '/query/since',
        'since must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00.000Z',
      ],
      [
        'since=2024-01-01',
        '/query/since',
        'since must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00.000Z',
      ],
      [
        'since=2024-01-01T00:00:00',
        '/query/since',
        'since must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00.000Z',
      ],
      [
        'since=2024-02-30T00:00:00Z',
        '/query/since',
        'since must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00.000Z',
      ],
      ['category=', '/query/category', 'category must be 1 to 100 characters long'],
      ['order=asc', '/query/order', 'order is not an allowed property'],
    ];

    it.each(invalidQueries)('answers 400 ValidationError to ?%s', async (query, path, message) => {
      const res = await t.admin.get(`/api/admin/feedback?${query}`);
      expect(expectErrorRecord(res, 400, 'ValidationError').details).toEqual([{ path, message }]);
    });

    it('needs READ_FEEDBACK: 401 without a token, 403 without the permission', async () => {
      expectErrorRecord(await t.http.get('/api/admin/feedback'), 401, 'AuthenticationRequired');
      const viewer = await serviceTokenWith(t, []);
      const denied = await t.as(viewer).get('/api/admin/feedback');
      expect(expectErrorRecord(denied, 403, 'PermissionError')).toEqual(
        expect.objectContaining({ permissions: ['READ_FEEDBACK'] }),
      );
      expectErrorRecord(
        await t.as(await clientToken('client')).get('/api/admin/feedback'),
        403,
        'PermissionError',
      );
      const reader = await serviceTokenWith(t, [{ name: 'READ_FEEDBACK' }]);
      const res = await t.as(reader).get('/api/admin/feedback?limit=1').expect(200);
      expect(res.body.feedback).toHaveLength(1);
    });
  });

  describe('GET /api/admin/feedback/summary', () => {
    let secondBatchFrom: string;

    beforeAll(async () => {
      await t.dataSource.getRepository(Feedback).clear();
      await post({ category: 'ux', difficultyScore: 1 });
      await post({ category: 'ux', difficultyScore: 2 });
      await post({ category: 'ux' });
      await post({ category: 'bugs' });
      await post({ category: 'bugs', difficultyScore: null });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const first = await post({ category: 'ux', difficultyScore: 4.5 });
      secondBatchFrom = first.createdAt;
      await post({ category: 'docs', difficultyScore: -1 });
      await post({ category: 'docs', difficultyScore: 0.5 });
      // Byte order of UTF-8: "～" (U+FF5E, EF BD 9E) sorts before "😀" (F0 9F 98 80), though
      // its UTF-16 unit is higher; uppercase before lowercase.
      await post({ category: '😀', difficultyScore: 10 });
      await post({ category: '～', difficultyScore: 7 });
      await post({ category: 'Zeta' });
    });

    it('counts per category and averages the non-null scores, by category in byte order', async () => {
      const res = await t.admin.get('/api/admin/feedback/summary').expect(200);
      expect(res.body).toEqual({
        categories: [
          { category: 'Zeta', count: 1, averageDifficultyScore: null },
          { category: 'bugs', count: 2, averageDifficultyScore: null },
          { category: 'docs', count: 2, averageDifficultyScore: -0.25 },
          { category: 'ux', count: 4, averageDifficultyScore: 2.5 },
          { category: '～', count: 1, averageDifficultyScore: 7 },
          { category: '😀', count: 1, averageDifficultyScore: 10 },
        ],
      });
    });

    it('agrees with the listing', async () => {
      const list = await t.admin.get('/api/admin/feedback?limit=1000').expect(200);
      const summary = await t.admin.get('/api/admin/feedback/summary').expect(200);
      const total = summary.body.categories.reduce(
        (sum: number, c: { count: number }) => sum + c.count,
        0,
      );
      expect(total).toBe(list.body.feedback.length);
    });

    it('counts only feedback at or after since', async () => {
      const res = await t.admin
        .get('/api/admin/feedback/summary')
        .query({ since: secondBatchFrom })
        .expect(200);
      expect(res.body.categories).toEqual([
        { category: 'Zeta', count: 1, averageDifficultyScore: null },
        { category: 'docs', count: 2, averageDifficultyScore: -0.25 },
        { category: 'ux', count: 1, averageDifficultyScore: 4.5 },
        { category: '～', count: 1, averageDifficultyScore: 7 },
        { category: '😀', count: 1, averageDifficultyScore: 10 },
      ]);
      const none = await t.admin
        .get('/api/admin/feedback/summary?since=2999-01-01T00:00:00.000Z')
        .expect(200);
      expect(none.body).toEqual({ categories: [] });
    });

    it('computes the figures in one SQL statement', async () => {
      const { result, count, statements } = await t.sql.measure(() =>
        t.admin.get('/api/admin/feedback/summary'),
      );
      expect(result.status).toBe(200);
      expect(count).toBe(1);
      expect(statements[0]).toMatch(/GROUP BY/i);
    });

    it('answers 400 to an invalid since or an unknown parameter', async () => {
      const bad = await t.admin.get('/api/admin/feedback/summary?since=soon&limit=5');
      expect(
        expectErrorRecord(bad, 400, 'ValidationError')
          .details?.map((d) => d.path)
          .sort(),
      ).toEqual(['/query/limit', '/query/since']);
    });

    it('needs READ_FEEDBACK', async () => {
      expectErrorRecord(
        await t.http.get('/api/admin/feedback/summary'),
        401,
        'AuthenticationRequired',
      );
      const viewer = await serviceTokenWith(t, []);
      expectErrorRecord(
        await t.as(viewer).get('/api/admin/feedback/summary'),
        403,
        'PermissionError',
      );
    });
  });

  it('documents the seed schemas in the OpenAPI document', async () => {
    const doc = await t.http.get('/docs/openapi.json').expect(200);
    const schemas = doc.body.components.schemas;
    expect(Object.keys(schemas.provideFeedbackSchema.properties).sort()).toEqual([
      'areasForImprovement',
      'category',
      'difficultyScore',
      'positive',
      'userType',
    ]);
    expect(schemas.provideFeedbackSchema.required).toEqual(['category']);
    expect(schemas.feedbackSchema.required.sort()).toEqual([
      'areasForImprovement',
      'category',
      'createdAt',
      'difficultyScore',
      'id',
      'positive',
      'userType',
    ]);
    const post = doc.body.paths['/feedback'].post;
    expect(post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/provideFeedbackSchema',
    });
    expect(post.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/feedbackSchema',
    });
  });
});
