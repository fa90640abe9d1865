/**
 * Authorization of the trained model APIs by ES's action names: `monitor_ml` reads configs and
 * stats and may infer (ES's infer actions are `cluster:monitor/…`), `manage_ml` may also register,
 * deploy, update, stop and delete; a key with neither gets 403 naming the action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, type SecureTestApp } from '../support/secure-app.js';

const MODEL = '.sparse_model_2';
const URL = `/_ml/trained_models/${MODEL}`;
let t: SecureTestApp;
let monitor: string;
let manage: string;
let none: string;

beforeAll(async () => {
  t = await createSecureTestApp();
  expect((await t.request('PUT', URL, { input: { field_names: ['text_field'] } })).status).toBe(200);
  expect((await t.request('POST', `${URL}/deployment/_start`)).status).toBe(200);
  monitor = (await t.createKey('monitor', { r: { cluster: ['monitor_ml'] } })).encoded;
  manage = (await t.createKey('manage', { r: { cluster: ['manage_ml'] } })).encoded;
  none = (await t.createKey('none', { r: { cluster: [], indices: [{ names: ['*'], privileges: ['all'] }] } })).encoded;
});
afterAll(async () => t.close());

const infer = { docs: [{ text_field: 'hello' }] };

describe('trained model API authorization', () => {
  it('monitor_ml can read configs and stats and infer, but not change anything', async () => {
    expect((await t.as(monitor, 'GET', '/_ml/trained_models')).status).toBe(200);
    expect((await t.as(monitor, 'GET', `${URL}/_stats`)).status).toBe(200);
    expect((await t.as(monitor, 'POST', `${URL}/_infer`, infer)).status).toBe(200);
    const put = await t.as(monitor, 'PUT', '/_ml/trained_models/other', { input: { field_names: ['x'] } });
    expect(put.status).toBe(403);
    expect(put.body.error.reason).toMatch(/^action \[cluster:admin\/xpack\/ml\/inference\/put\] is unauthorized for API key id \[[^\]]+\] of user \[elastic\], this action is granted by the cluster privileges \[manage_ml,manage,all\]$/);
    expect((await t.as(monitor, 'POST', `${URL}/deployment/_stop`)).status).toBe(403);
    expect((await t.as(monitor, 'DELETE', URL)).status).toBe(403);
  });

  it('a key without ML privileges gets 403 everywhere', async () => {
    for (const [method, url, body] of [
      ['GET', '/_ml/trained_models'], ['GET', `${URL}/_stats`], ['POST', `${URL}/_infer`, infer], ['POST', `${URL}/deployment/_infer`, infer],
      ['POST', `${URL}/deployment/_start?deployment_id=x`], ['POST', `${URL}/deployment/_update`, { number_of_allocations: 1 }],
    ] as Array<[string, string, unknown?]>) {
      const res = await t.as(none, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.error.type).toBe('security_exception');
    }
  });

  it('manage_ml can deploy, update and stop', async () => {
    expect((await t.as(manage, 'POST', `${URL}/deployment/_start?deployment_id=managed`)).status).toBe(200);
    expect((await t.as(manage, 'POST', '/_ml/trained_models/managed/deployment/_update', { number_of_allocations: 1 })).status).toBe(200);
    expect((await t.as(manage, 'POST', '/_ml/trained_models/managed/deployment/_infer', infer)).status).toBe(200);
    expect((await t.as(manage, 'POST', '/_ml/trained_models/managed/deployment/_stop')).status).toBe(200);
  });
});
