/** The official Node client 9.x (`@elastic/elasticsearch@9.5.1`, aliased `es9`) works unchanged. */
import { Client, errors } from 'es9';
import { describeClientScenarios } from './scenarios.js';

describeClientScenarios({ major: 9, Client, errors });
