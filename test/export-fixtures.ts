import type request from 'supertest';
import { envUrl, featureUrl } from './feature-fixtures';
import type { TestApp } from './support/test-app';

/** Helpers shared by the export e2e specs. */

export const EXPORT = '/api/admin/features-batch/export';

/** Sends a request and insists on its status, showing the body when it differs. */
export async function expectStatus(req: request.Test, status: number): Promise<request.Response> {
  const res = await req;
  if (res.status !== status) {
    throw new Error(`expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res;
}

/** An export that must answer 200; returns the parsed body. */
export async function exportOf(t: TestApp, body: object): Promise<ExportDocument> {
  const res = await expectStatus(t.admin.post(EXPORT, body), 200);
  return res.body as ExportDocument;
}

export interface ExportDocument {
  features: object[];
  featureEnvironments: object[];
  featureStrategies: object[];
  contextFields: object[];
  segments: object[];
  featureTags: object[];
  tagTypes: object[];
  dependencies: object[];
}

export function emptyExport(): ExportDocument {
  return {
    features: [],
    featureEnvironments: [],
    featureStrategies: [],
    contextFields: [],
    segments: [],
    featureTags: [],
    tagTypes: [],
    dependencies: [],
  };
}

export async function create(t: TestApp, url: string, body: object): Promise<request.Response> {
  return expectStatus(t.admin.post(url, body), 201);
}

export async function createStrategyIn(
  t: TestApp,
  feature: string,
  env: string,
  body: object,
  project = 'default',
): Promise<string> {
  const res = await create(t, `${envUrl(feature, env, project)}/strategies`, body);
  return res.body.id as string;
}

export async function enable(t: TestApp, feature: string, env: string, project = 'default') {
  await expectStatus(t.admin.post(`${envUrl(feature, env, project)}/on`), 204);
}

export async function tag(t: TestApp, feature: string, type: string, value: string) {
  await create(t, `/api/admin/features/${feature}/tags`, { type, value });
}

export async function archive(t: TestApp, feature: string, project = 'default') {
  await expectStatus(t.admin.delete(featureUrl(feature, project)), 204);
}
