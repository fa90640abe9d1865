/**
 * search/suggest — the completion suggester: planned per index on the coordinator
 * (plan-suggest.ts), run per shard in workers over the segments' completion entries
 * (completion-suggester.ts), reduced and rendered by cluster/. Shard answers are plain data.
 */
export * from './exec-suggest.js';
export { planCompletion, suggestionText } from './plan-suggest.js';
export { suggestCompletion } from './completion-suggester.js';
export { OptionPicker } from './option-picker.js';
export { reduceCompletion, type SuggestOption, type SuggestTarget } from './suggest-reduce.js';
