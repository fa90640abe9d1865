/**
 * threadsearch's own connector (the `threadsearch/connector` bundle) through the same scenarios as
 * Elastic's, with the read-only key a browser app embeds; where reference §0 says ours differs,
 * the scenarios assert ours. Error answers surface as errors with the status and ES's reason.
 */
import { describe, expect, it } from 'vitest';
import { ConnectorError } from 'threadsearch/connector';
import { THREADSEARCH_CONNECTOR, useConnectorServer } from './fixture.js';
import { INDEX } from './products.js';
import { describeConnectorScenarios } from './scenarios.js';

describe('the threadsearch connector with a read-only key for one index', () => {
  const server = useConnectorServer();
  describeConnectorScenarios(server, (s) => s.readOnlyKey, THREADSEARCH_CONNECTOR);

  describe('error answers of the running server', () => {
    it('a wrong key: a ConnectorError with 401 and the security_exception reason', async () => {
      const s = server();
      const connector = THREADSEARCH_CONNECTOR.create(s, btoa(`${s.readOnlyKeyId}:not-the-secret`));
      const err = await connector.onSearch({ searchTerm: 'laptop' }, {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorError);
      expect(err).toMatchObject({ status: 401, type: 'security_exception', url: `${s.url}/${INDEX}/_search` });
      expect((err as Error).message).toMatch(new RegExp(`^POST ${s.url}/${INDEX}/_search answered 401 security_exception: unable to authenticate with provided credentials`));
    });

    it('another index than the key may read: 403 with the unauthorized action in the message', async () => {
      const s = server();
      await s.t.request('PUT', '/secrets', { mappings: { properties: { title: { type: 'text' } } } });
      const err = await THREADSEARCH_CONNECTOR.create(s, s.readOnlyKey, { index: 'secrets' })
        .onAutocomplete({ searchTerm: 'lap' }, { results: { search_fields: { title: {} } } })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'ConnectorError', status: 403, type: 'security_exception' });
      expect((err as Error).message).toContain('action [indices:data/read/search] is unauthorized');
    });
  });
});
