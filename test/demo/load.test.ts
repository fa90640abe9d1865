/**
 * `npm run demo:load` is idempotent, as the README says: run again on a server where it already
 * ran (model deployed, pipeline and index there), it replaces what it made and ends the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSample, SAMPLE_INDEX } from '../../demo/sample/load.js';
import { createSecureTestApp, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';

let t: SecureTestApp;
let es: string;
beforeAll(async () => {
  t = await createSecureTestApp();
  es = await t.listen();
}, 120_000);
afterAll(async () => t?.close());

describe('demo:load', () => {
  it('a second run over the first (the deployment already started) loads the same documents', async () => {
    const first = await loadSample({ es, apiKey: SUPERUSER_KEY, limit: 30 });
    const second = await loadSample({ es, apiKey: SUPERUSER_KEY, limit: 30 });
    expect(second).toEqual(first);
    expect(second).toMatchObject({ index: SAMPLE_INDEX, documents: 30 });
  }, 120_000);
});
