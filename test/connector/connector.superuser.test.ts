/**
 * Elastic's Search UI connector 1.24.2 against a running server, authenticated with the bootstrap
 * superuser key as the other client tests are (the scenarios are in scenarios.ts).
 */
import { describe } from 'vitest';
import { SUPERUSER_KEY } from '../support/secure-app.js';
import { useConnectorServer } from './fixture.js';
import { describeConnectorScenarios } from './scenarios.js';

describe('the Search UI connector with the superuser key', () => {
  describeConnectorScenarios(useConnectorServer(), () => SUPERUSER_KEY);
});
