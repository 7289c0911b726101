import { ValidationError } from '../common/errors';
import { parseFeaturePatch } from './feature-patch';

describe('parseFeaturePatch', () => {
  it('reads a JSON Patch array, later operations winning', async () => {
    await expect(
      parseFeaturePatch([
        { op: 'replace', path: '/stale', value: true },
        { op: 'add', path: '/type', value: 'experiment' },
        { op: 'replace', path: '/description', value: 'first' },
        { op: 'remove', path: '/description' },
        { op: 'replace', path: '/stale', value: false },
      ]),
    ).resolves.toEqual({ stale: false, type: 'experiment', description: null });
  });

  it('reads a partial object, leaving out what is not given', async () => {
    await expect(parseFeaturePatch({ impressionData: true })).resolves.toEqual({
      impressionData: true,
    });
    await expect(parseFeaturePatch({})).resolves.toEqual({});
  });

  it('rejects other shapes with details', async () => {
    await expect(parseFeaturePatch('stale')).rejects.toBeInstanceOf(ValidationError);
    await expect(parseFeaturePatch(null)).rejects.toBeInstanceOf(ValidationError);
    await expect(
      parseFeaturePatch([{ op: 'replace', path: '/__proto__', value: 1 }]),
    ).rejects.toMatchObject({
      details: [
        {
          path: '/body/0/path',
          message: 'path must be one of /description, /type, /impressionData, /stale',
        },
      ],
    });
    await expect(parseFeaturePatch({ stale: 'yes' })).rejects.toMatchObject({
      details: [{ path: '/body/stale', message: 'stale must be a boolean value' }],
    });
  });
});
