/**
 * The verified-key cache's pieces on a secured server's hot path: the digest of a secret read from
 * the scratch buffer is the digest of the same secret as a string, and no secret stays there; the allocation-free reading of the canonical `ApiKey` header decodes exactly
 * what parseAuthorization decodes, and declines every header it does not read the same way; a key
 * authenticates the same through either reading, and the scratch buffer keeps no secret.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiKeyService, decodeCanonicalApiKey, encodeApiKey, parseAuthorization } from '../../src/security/index.js';
import { cacheDigest, cacheDigestOf, charCodes, codesMatch } from '../../src/security/key-hasher.js';

/** The 401's detail (ES's `additional_unsuccessful_credentials`). */
async function detail(answer: unknown): Promise<string> {
  try {
    await answer;
  } catch (e) {
    return String((e as { metadata: Record<string, unknown> }).metadata.additional_unsuccessful_credentials);
  }
  return 'authenticated';
}

describe('cache digest', () => {
  it('depends on every byte of the secret and compares in full', () => {
    const a = charCodes(cacheDigest('secret-one'));
    expect(codesMatch(a, cacheDigest('secret-one'))).toBe(true);
    expect(codesMatch(a, cacheDigest('secret-onf'))).toBe(false);
    expect(codesMatch(a, cacheDigest('secret-on'))).toBe(false);
    // UTF-8 of the secret, as crypto.hash read the string
    expect(codesMatch(charCodes(cacheDigest('ключ')), cacheDigest('ключ'))).toBe(true);
    expect(codesMatch(charCodes(cacheDigest('ключ')), cacheDigest('ключа'))).toBe(false);
  });

  it('matches a kept digest (as code units) exactly when the digests are the same string', () => {
    const kept = cacheDigest('secret-one');
    const bytes = charCodes(kept);
    expect(bytes).toHaveLength(32);
    for (const other of ['secret-one', 'secret-onf', 'secret-on', 'ключ', '']) {
      expect(codesMatch(bytes, cacheDigest(other)), other).toBe(kept === cacheDigest(other));
    }
    expect(codesMatch(bytes, kept.slice(0, 31))).toBe(false);
    // every byte position counts
    for (let i = 0; i < 32; i++) {
      const changed = kept.slice(0, i) + String.fromCharCode(kept.charCodeAt(i) ^ 1) + kept.slice(i + 1);
      expect(codesMatch(bytes, changed)).toBe(false);
    }
  });

  it('is the same for a secret read from bytes as for the secret as a string, at every length', () => {
    for (let length = 0; length <= 300; length++) {
      const secret = randomBytes(length).toString('base64').slice(0, length);
      const bytes = Buffer.concat([randomBytes(3), Buffer.from(secret), randomBytes(5)]);
      const digest = cacheDigestOf(bytes, 3, 3 + length);
      expect(digest).toBe(cacheDigest(secret));
      expect(digest).toHaveLength(32);
    }
  });
});

describe('decodeCanonicalApiKey', () => {
  const scratch = Buffer.alloc(192);
  /** What the fast reading decodes as text, or null when it declines. */
  const fast = (header: string): string | null => {
    const n = decodeCanonicalApiKey(header, scratch);
    return n < 0 ? null : scratch.toString('latin1', 0, n);
  };
  /** What parseAuthorization decodes (id:secret), or null when it finds no key. */
  const slow = (header: string): string | null => {
    const p = parseAuthorization(header);
    return p.kind === 'api_key' ? `${p.credentials.id}:${p.credentials.secret}` : null;
  };

  it('reads issued keys and keys of any length exactly as parseAuthorization does', () => {
    for (let i = 0; i < 3000; i++) {
      const id = randomBytes(1 + (i % 30)).toString('base64url');
      const secret = randomBytes(1 + (i % 41)).toString('base64url');
      const header = `ApiKey ${encodeApiKey({ id, secret })}`;
      expect(fast(header)).toBe(`${id}:${secret}`);
      expect(slow(header)).toBe(`${id}:${secret}`);
    }
  });

  it('declines, never misreads, anything else', () => {
    const key = encodeApiKey({ id: 'an-id', secret: 'a-secret' }); // YW4taWQ6YS1zZWNyZXQ=
    const declined = [
      `apikey ${key}`, `APIKEY ${key}`, `ApiKey  ${key}`, ` ApiKey ${key}`, `ApiKey ${key} `, `ApiKey ${key}\t`,
      `ApiKey ${key.replace(/=+$/, '')}`, `ApiKey ${key}=`, `ApiKey ${key}==`, 'ApiKey ', 'ApiKey', `Basic ${key}`,
      `ApiKey ${Buffer.from('ключ:секрет').toString('base64')}`, // not ASCII: Buffer's UTF-8 reading
      `ApiKey ${Buffer.from('id:\u00e9t\u00e9', 'latin1').toString('base64')}`,
      `ApiKey ${Buffer.from('an-id:a?secret>>').toString('base64url')}`, // url-safe alphabet
      'ApiKey ====', 'ApiKey a===', 'ApiKey ab=c', `ApiKey ${'A'.repeat(260)}`, 'ApiKey YW4t\u0130WQ6',
    ];
    for (const header of declined) {
      scratch.fill(0);
      expect(fast(header), header).toBeNull();
      // Nothing decoded before the decline (perhaps most of a secret) stays in the scratch buffer.
      expect(scratch.every((b) => b === 0), header).toBe(true);
    }
    // Random headers: whenever the fast reading accepts one, it decodes what parseAuthorization decodes
    // (when that finds id:secret at all; the caller sends every other header there).
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ :é';
    for (let i = 0; i < 20_000; i++) {
      let value = '';
      const length = 4 * (1 + (i % 12)) + (i % 7 === 0 ? 1 : 0);
      for (let j = 0; j < length; j++) value += alphabet[randomBytes(1)[0] % (i % 3 === 0 ? alphabet.length : 65)];
      const header = `ApiKey ${value}`;
      const text = fast(header);
      if (text === null) continue;
      const colon = text.indexOf(':');
      if (colon > 0 && colon < text.length - 1) expect(text, header).toBe(slow(header));
      else expect(Buffer.from(value, 'base64').toString('latin1'), header).toBe(text);
    }
  });
});

describe('ApiKeyService.authenticate', () => {
  it('authenticates a key the same through the canonical reading and the general one, and fails a wrong secret', async () => {
    const keys = new ApiKeyService(async () => {});
    await keys.initBootstrap({ id: 'boot', secret: 'boot-secret' });
    const canonical = `ApiKey ${encodeApiKey({ id: 'boot', secret: 'boot-secret' })}`;
    const general = `apikey ${encodeApiKey({ id: 'boot', secret: 'boot-secret' }).replace(/=+$/, '')}`;
    // first sight: scrypt (a promise), then the cache answers synchronously — by either reading
    const first = keys.authenticate(canonical, '/');
    expect(first).toBeInstanceOf(Promise);
    expect((await first).username).toBe('elastic');
    expect(keys.authenticate(canonical, '/')).not.toBeInstanceOf(Promise);
    expect(keys.authenticate(general, '/')).not.toBeInstanceOf(Promise);
    const wrong = `ApiKey ${encodeApiKey({ id: 'boot', secret: 'boot-secreT' })}`;
    expect(await detail(keys.authenticate(wrong, '/'))).toBe('API key: invalid credentials for API key [boot]');
    // a key created later, read first through the general reading
    const auth = await keys.authenticate(canonical, '/');
    const created = (await keys.create(auth, { name: 'k' })) as { id: string; api_key: string };
    const generalKey = `apikey ${encodeApiKey({ id: created.id, secret: created.api_key })}`;
    expect((await keys.authenticate(generalKey, '/')).apiKey?.id).toBe(created.id);
    expect(keys.authenticate(`ApiKey ${encodeApiKey({ id: created.id, secret: created.api_key })}`, '/')).not.toBeInstanceOf(Promise);
  });

  it('reads each header by its own bytes, whatever an earlier one left in the scratch buffer', async () => {
    const keys = new ApiKeyService(async () => {});
    await keys.initBootstrap({ id: 'boot', secret: 'a-very-recognisable-secret' });
    const header = `ApiKey ${encodeApiKey({ id: 'boot', secret: 'a-very-recognisable-secret' })}`;
    await keys.authenticate(header, '/');
    expect(keys.authenticate(header, '/')).not.toBeInstanceOf(Promise);
    expect(await detail((async () => keys.authenticate(`ApiKey ${encodeApiKey({ id: 'nobody', secret: 'a-very-recognisable-secret' })}`, '/'))())).toBe('API key: unable to find apikey with id nobody');
    // a shorter secret after a longer one, and a prefix of the verified one
    expect(await detail(keys.authenticate(`ApiKey ${encodeApiKey({ id: 'boot', secret: 'a' })}`, '/'))).toBe('API key: invalid credentials for API key [boot]');
    expect(await detail(keys.authenticate(`ApiKey ${encodeApiKey({ id: 'boot', secret: 'a-very-recognisable-secre' })}`, '/'))).toBe('API key: invalid credentials for API key [boot]');
    expect(keys.authenticate(header, '/')).not.toBeInstanceOf(Promise);
  });
});
