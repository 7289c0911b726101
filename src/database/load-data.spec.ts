import { dataLine, dataPackets, dataText } from './load-data';

/**
 * What a MySQL-family server reads from one line of LOAD DATA's default format (FIELDS TERMINATED
 * BY '\t' ESCAPED BY '\\', LINES TERMINATED BY '\n'): the MySQL manual's table of escape
 * sequences, `\N` as NULL, and a backslash before any other character standing for that character.
 */
function readLine(line: string): Array<string | null> {
  if (!line.endsWith('\n')) throw new Error('a line ends with a newline');
  const escapes: Record<string, string> = {
    '0': '\0',
    b: '\b',
    n: '\n',
    r: '\r',
    t: '\t',
    Z: '\x1a',
  };
  const fields: Array<string | null> = [];
  let field = '';
  let nullField = false;
  const body = line.slice(0, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\t') {
      fields.push(nullField ? null : field);
      field = '';
      nullField = false;
    } else if (c === '\n') {
      throw new Error('an unescaped newline ends the row early');
    } else if (c === '\\') {
      const next = body[++i];
      if (next === 'N' && field === '' && (i + 1 === body.length || body[i + 1] === '\t')) {
        nullField = true;
      } else {
        field += escapes[next] ?? next;
      }
    } else {
      field += c;
    }
  }
  fields.push(nullField ? null : field);
  return fields;
}

describe('dataLine', () => {
  it('writes tab-separated fields that the server reads back as the values', () => {
    const values = [
      'plain',
      'tab\there',
      'new\nline and \r return',
      'back\\slash and \\N and \\t',
      'nul\0byte',
      '{"a":"\\"quoted\\"","b":"\\\\"}',
      'émoji 🚩 and \u2028',
      '',
      null,
      42,
      0,
    ];
    const line = dataLine(values);
    expect(line.split('\n')).toHaveLength(2);
    expect(line.split('\t')).toHaveLength(values.length);
    expect(readLine(line)).toEqual(values.map((v) => (typeof v === 'number' ? String(v) : v)));
  });

  it('keeps every generated string, whatever characters it holds', () => {
    const alphabet = ['a', '\\', '\t', '\n', '\r', '\0', 'N', '"', "'", 'é', '\x1a', ' '];
    for (let seed = 1; seed <= 500; seed++) {
      let value = '';
      for (let n = seed; n > 0; n = Math.floor(n / alphabet.length)) {
        value += alphabet[n % alphabet.length];
      }
      expect(readLine(dataLine([value, null, value]))).toEqual([value, null, value]);
    }
  });

  it('counts the rows of a text', () => {
    expect(
      dataText([
        ['a', 1],
        ['b', 2],
      ]),
    ).toEqual({ text: 'a\t1\nb\t2\n', rows: 2 });
    expect(dataText([])).toEqual({ text: '', rows: 0 });
  });
});

describe('dataPackets', () => {
  it('cuts the text into non-empty pieces of at most the size, which join into its bytes', () => {
    const text = 'aé🚩\t'.repeat(1000);
    const pieces = [...dataPackets(text, 100)];
    expect(pieces.length).toBe(Math.ceil(Buffer.byteLength(text) / 100));
    for (const piece of pieces) {
      expect(piece.length).toBeGreaterThan(0);
      expect(piece.length).toBeLessThanOrEqual(100);
    }
    expect(Buffer.concat(pieces).toString('utf8')).toBe(text);
    expect([...dataPackets('', 100)]).toEqual([]);
  });
});
