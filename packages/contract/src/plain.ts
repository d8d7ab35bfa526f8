/**
 * The zod-free part of the contract (`@learnlingo/contract/plain`): messages, error
 * codes and small guards that the web app's first page load may import without
 * pulling zod in. The main entry re-exports all of it.
 */
export * from './messages.js';
export * from './account-messages.js';
export * from './codes.js';
export * from './guards.js';
export * from './api-guards.js';
export * from './rules.js';
export * from './catalogue-filters.js';
export * from './catalogue-query.js';
export * from './avatars.js';
export * from './return-path.js';
export * from './early-input.js';
export * from './roles.js';
export type * from './ssr.js';
export * from './review-texts.js';
