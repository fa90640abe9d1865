/** ES UppercaseProcessor (Locale.ROOT upper-casing). */
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { stringProcessor } from './string-processor.js';

export const uppercase = (config: ProcessorConfig): ProcessorBody => stringProcessor(config, (s) => s.toUpperCase());
