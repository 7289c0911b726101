import { featureApi, featurePage, UiSession } from './feature-page';

/**
 * The feature pages of Unleash's admin UI 7.5.1 against Flagkeeper (issue 11): create form,
 * strategy form with a constraint and a segment, variants, tags, archive and revive. Every step
 * checks what the page shows and what Flagkeeper stored, read back through the admin API.
 *
 * The flows share one signed-in browser page; each seeds through the API what it does not
 * itself create in the UI, under names of its own, so any one of them can run alone.
 */
describe("Unleash's admin UI 7.5.1: the feature pages", () => {
  let s: UiSession;

  beforeAll(async () => {
    s = await UiSession.start();
  }, 300000);

  afterAll(async () => {
    await s?.close();
  });

  const seedFeature = async (name: string): Promise<void> => {
    await s.t.admin.post('/api/admin/projects/default/features', { name }).expect(201);
  };

  it('creates a feature through the create form', async () => {
    await s.flow('create-feature', async () => {
      const { page, t } = s;
      await s.open('/projects/default');
      await s.press(page.getByRole('button', { name: 'New feature flag' }));
      const dialog = s.dialog();
      await s.visible(dialog.getByLabel('Feature flag name'));
      const checked = s.call('POST', /^\/api\/admin\/features\/validate$/);
      await dialog.getByLabel('Feature flag name').fill('ui-created');
      await dialog.getByLabel('Description (optional)').first().fill('made in the form');
      expect(await checked).toBe(204);
      const created = s.request('POST', /^\/api\/admin\/projects\/default\/features$/);
      await s.press(dialog.getByRole('button', { name: 'Create feature flag' }));
      const sent = await created;
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ name: 'ui-created', type: 'release' });

      // The UI moves to the new feature's page, which Flagkeeper's answers fill.
      await s.until(
        async () => new URL(page.url()).pathname,
        (path) => path === featurePage('ui-created'),
      );
      await s.shows(/made in the form/);
      await s.shows(/Created by:\s*Admin/);
      const stored = await t.admin.get(featureApi('ui-created')).expect(200);
      expect(stored.body).toMatchObject({
        name: 'ui-created',
        type: 'release',
        description: 'made in the form',
        archived: false,
        createdBy: expect.objectContaining({ name: 'Admin' }),
      });
    });
  });

  it('adds, edits and saves a strategy with a constraint and a segment, keeping the segment', async () => {
    await s.flow('strategy', async () => {
      const { page, t } = s;
      await seedFeature('ui-strategy');
      const segment = await t.admin
        .post('/api/admin/segments', {
          name: 'ui-beta',
          constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }],
        })
        .expect(201);
      const segmentId: number = segment.body.id;
      const strategies = async () => {
        const stored = await t.admin.get(featureApi('ui-strategy')).expect(200);
        return stored.body.environments.find((e: { name: string }) => e.name === 'development')
          .strategies;
      };

      // Add: a gradual rollout on development, from the add-strategy dialog.
      await s.open(featurePage('ui-strategy'));
      const add = page.getByRole('button', { name: 'Add strategy', exact: true }).first();
      await s.visible(add);
      await s.press(add);
      const rollout = s
        .dialog()
        .locator(
          'xpath=.//*[normalize-space(text())="Gradual rollout"]/ancestor::*[.//*[normalize-space(text())="Configure"]][1]',
        );
      await s.visible(rollout);
      await s.press(rollout.getByText('Configure', { exact: true }));
      await s.visible(page.getByRole('tab', { name: /Targeting/ }));
      await s.press(page.getByRole('tab', { name: /Targeting/ }));

      // The segment, from the segments Flagkeeper lists.
      await s.press(page.getByPlaceholder('Select segments'));
      await s.press(page.getByRole('option', { name: 'ui-beta' }));
      await s.shows(/Selected Segments\s*ui-beta/);

      // The constraint: userId is one of alice, bob; Flagkeeper validates it as it is added.
      await s.press(page.getByRole('button', { name: 'Add constraint' }));
      await s.press(page.locator('#context-field-select'));
      await s.press(page.getByRole('option', { name: 'userId', exact: true }));
      await s.press(page.getByRole('button', { name: 'Add values' }));
      await s.visible(page.getByPlaceholder('Enter value'));
      await page.getByPlaceholder('Enter value').fill('alice, bob');
      const validated = s.call('POST', /^\/api\/admin\/constraints\/validate$/);
      await s.press(page.getByTestId('CONSTRAINT_VALUES_ADD_BUTTON'));
      expect(await validated).toBe(204);
      await page.keyboard.press('Escape');

      const created = s.request(
        'POST',
        /\/features\/ui-strategy\/environments\/development\/strategies$/,
      );
      await s.press(page.getByRole('button', { name: 'Save strategy' }));
      const sentCreate = await created;
      expect(sentCreate.status).toBe(201);
      expect(sentCreate.body).toMatchObject({ name: 'flexibleRollout', segments: [segmentId] });
      let stored = await strategies();
      expect(stored).toEqual([
        expect.objectContaining({
          name: 'flexibleRollout',
          segments: [segmentId],
          constraints: [
            expect.objectContaining({ contextName: 'userId', values: ['alice', 'bob'] }),
          ],
        }),
      ]);

      // The page shows the strategy with its segment and constraint.
      await s.visible(page.getByText('1 strategy added'));
      const edit = page.getByTestId('STRATEGY_EDIT-flexibleRollout');
      if (!(await edit.isVisible())) await s.press(page.getByText('1 strategy added'));
      await s.visible(edit);
      const environment = page.getByTestId('FEATURE_ENVIRONMENT_ACCORDION_development');
      await s.shows(/Segment\s*ui-beta/, environment);
      await s.shows(/userId\s*is one of\s*alice\s*bob/, environment);

      // Edit: the form loads the strategy's segments from Flagkeeper, and saving keeps them.
      const segmentsRead = s.call('GET', /^\/api\/admin\/segments\/strategies\//);
      await s.press(edit);
      expect(await segmentsRead).toBe(200);
      await s.visible(page.locator('#title-input'));
      await page.locator('#title-input').fill('beta rollout');
      const form = page.locator('form').filter({ hasText: 'Save strategy' });
      await form.locator('input[type=number]').fill('30');
      const updated = s.request('PUT', /\/environments\/development\/strategies\/[^/]+$/);
      await s.press(page.getByRole('button', { name: 'Save strategy' }));
      const sentUpdate = await updated;
      expect(sentUpdate.status).toBe(200);
      // The bug this guards against: the form used to save `segments: []`.
      expect(sentUpdate.body).toMatchObject({ title: 'beta rollout', segments: [segmentId] });
      stored = await strategies();
      expect(stored).toEqual([
        expect.objectContaining({
          id: stored[0].id,
          title: 'beta rollout',
          parameters: expect.objectContaining({ rollout: '30' }),
          segments: [segmentId],
          constraints: [
            expect.objectContaining({ contextName: 'userId', values: ['alice', 'bob'] }),
          ],
        }),
      ]);
      if (!(await edit.isVisible())) await s.press(page.getByText('1 strategy added'));
      await s.shows(/beta rollout/, environment);
      await s.shows(/Segment\s*ui-beta/, environment);
      await s.shows(/30%/, environment);
    });
  });

  it('edits the variants of a feature in an environment', async () => {
    await s.flow('variants', async () => {
      const { page, t } = s;
      await seedFeature('ui-variants');
      const stored = async () =>
        (
          await t.admin
            .get(`${featureApi('ui-variants')}/environments/development/variants`)
            .expect(200)
        ).body.variants;

      // The variants page of a feature without variants: the tab shows once it has some.
      await s.open(`${featurePage('ui-variants')}/variants`);
      const add = page.getByRole('button', { name: 'Add variant' }).first();
      await s.visible(add);
      expect(await page.getByTestId('TAB-Variants').count()).toBe(0);
      await s.press(add);
      const form = page
        .locator('form')
        .filter({ hasText: /Save variants/ })
        .last();
      await s.visible(form.getByTestId('VARIANT_NAME_INPUT'));
      await form.getByTestId('VARIANT_NAME_INPUT').locator('input').first().fill('blue');
      await form.locator('#variant-payload-value').fill('{"c":1}');
      await s.press(form.getByRole('button', { name: 'Add variant' }));
      await s.visible(form.getByTestId('VARIANT_NAME_INPUT').nth(1));
      await form.getByTestId('VARIANT_NAME_INPUT').nth(1).locator('input').fill('green');
      const saved = s.call(
        'PATCH',
        /\/features\/ui-variants\/environments\/development\/variants$/,
      );
      await s.press(form.getByTestId('DIALOGUE_CONFIRM_ID'));
      expect(await saved).toBe(200);
      expect(await stored()).toEqual([
        expect.objectContaining({
          name: 'blue',
          weight: 500,
          payload: { type: 'string', value: '{"c":1}' },
        }),
        expect.objectContaining({ name: 'green', weight: 500 }),
      ]);
      await s.visible(page.getByTestId('VARIANT_WEIGHT_blue'));
      await s.visible(page.getByTestId('VARIANT_WEIGHT_green'));
      await s.visible(page.getByTestId('TAB-Variants'));

      // Edit: drop green and change blue's payload; the UI sends the difference as a JSON Patch.
      await s.press(page.getByTestId('EDIT_VARIANTS_BUTTON'));
      const edit = page
        .locator('form')
        .filter({ hasText: /Save variants/ })
        .last();
      const remove = edit.locator('[data-testid^="VARIANT_DELETE_BUTTON_"]');
      await s.until(
        () => remove.count(),
        (n) => n === 2,
      );
      await s.press(remove.nth(1));
      await s.until(
        () => remove.count(),
        (n) => n === 1,
      );
      await edit.locator('#variant-payload-value').first().fill('{"c":2}');
      const patched = s.request('PATCH', /\/environments\/development\/variants$/);
      await s.press(edit.getByTestId('DIALOGUE_CONFIRM_ID'));
      const sent = await patched;
      expect(sent.status).toBe(200);
      expect(sent.body).toEqual(expect.arrayContaining([{ op: 'remove', path: '/1' }]));
      expect(await stored()).toEqual([
        expect.objectContaining({
          name: 'blue',
          weight: 1000,
          payload: { type: 'string', value: '{"c":2}' },
        }),
      ]);
      await s.until(
        () => page.getByTestId('VARIANT_WEIGHT_green').count(),
        (n) => n === 0,
      );
      await s.shows(/\{"c":2\}/);
    });
  });

  it('adds and removes tags', async () => {
    await s.flow('tags', async () => {
      const { page, t } = s;
      await seedFeature('ui-tags');
      const stored = async () =>
        (await t.admin.get('/api/admin/features/ui-tags/tags').expect(200)).body.tags;
      await s.open(featurePage('ui-tags'));
      const addTag = page.getByRole('button', { name: 'Add tag' });
      await s.visible(addTag);
      await s.press(addTag);
      const dialog = s.dialog();
      const values = dialog.getByPlaceholder('Select values');
      await s.visible(values);
      // Two new values of the simple type: the UI creates each tag, then sets the feature's tags.
      for (const value of ['frontend', 'mobile']) {
        await values.fill(value);
        const tagCreated = s.call('POST', /^\/api\/admin\/tags$/);
        await s.press(page.getByRole('option', { name: `Create new value "${value}"` }));
        expect(await tagCreated).toBe(201);
      }
      // Closes the value list, which covers the dialog's buttons.
      await s.press(dialog.getByText('Tags allow you to group features together'));
      const saved = s.request('PUT', /^\/api\/admin\/features\/ui-tags\/tags$/);
      await s.press(dialog.getByRole('button', { name: 'Save tags' }));
      const sent = await saved;
      expect(sent.status).toBe(200);
      expect(sent.body).toMatchObject({ removedTags: [] });
      expect(await stored()).toEqual([
        { type: 'simple', value: 'frontend' },
        { type: 'simple', value: 'mobile' },
      ]);
      const chip = (value: string) =>
        page.locator('.MuiChip-root').filter({ hasText: `simple:${value}` });
      await s.visible(chip('frontend'));
      await s.visible(chip('mobile'));

      // Remove one through its chip.
      await s.press(chip('mobile').locator('.MuiChip-deleteIcon'));
      await s.shows(/You are about to remove tag: simple:mobile/, s.dialog());
      const removed = s.call('DELETE', /^\/api\/admin\/features\/ui-tags\/tags\/simple\/mobile$/);
      await s.press(s.dialog().getByRole('button', { name: 'Remove tag' }));
      expect(await removed).toBe(204);
      expect(await stored()).toEqual([{ type: 'simple', value: 'frontend' }]);
      await s.until(
        () => chip('mobile').count(),
        (n) => n === 0,
      );
      await s.visible(chip('frontend'));
    });
  });

  it('archives a feature from its page and revives it from the archive page', async () => {
    await s.flow('archive-revive', async () => {
      const { page, t } = s;
      await seedFeature('ui-archived');
      const archived = async () =>
        (await t.admin.get(featureApi('ui-archived')).expect(200)).body.archived;
      await s.open(featurePage('ui-archived'));
      const archive = page.getByRole('button', { name: 'Archive feature flag' });
      await s.visible(archive);
      const checked = s.call('POST', /^\/api\/admin\/projects\/default\/archive\/validate$/);
      await s.press(archive);
      expect(await checked).toBe(200);
      const deleted = s.call('DELETE', /^\/api\/admin\/projects\/default\/features\/ui-archived$/);
      await s.press(s.dialog().getByRole('button', { name: 'Archive flag' }));
      expect(await deleted).toBe(204);
      expect(await archived()).toBe(true);
      await s.until(
        async () => new URL(page.url()).pathname,
        (path) => path === '/projects/default',
      );

      // The archive page lists it (Flagkeeper's search with archived=IS:true).
      await s.open('/archive');
      const row = page.getByRole('row').filter({ hasText: 'ui-archived' });
      await s.visible(row);
      await s.press(row.getByTestId('revive-feature-flag-button'));
      await s.shows(/You are about to revive feature flag: ui-archived/, s.dialog());
      const revived = s.request('POST', /^\/api\/admin\/projects\/default\/revive$/);
      await s.press(s.dialog().getByRole('button', { name: 'Revive feature flag' }));
      const sent = await revived;
      expect(sent).toEqual({ status: 204, body: { features: ['ui-archived'] } });
      expect(await archived()).toBe(false);
      await s.until(
        () => row.count(),
        (n) => n === 0,
      );
      // Back in the project's list.
      await s.open('/projects/default');
      await s.visible(page.locator(`a[href="${featurePage('ui-archived')}"]`));
    });
  });
});
