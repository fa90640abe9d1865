/** The official Node client 8.x (`@elastic/elasticsearch@8.19.2`, aliased `es8`) works unchanged. */
import { Client, errors } from 'es8';
import { describeClientScenarios } from './scenarios.js';

describeClientScenarios({ major: 8, Client, errors });
