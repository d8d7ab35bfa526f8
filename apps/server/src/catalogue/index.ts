/*
 * The catalogue: everything that reads or writes teachers lives under this folder, and
 * the rest of the server (routes, server rendering, avatars, SEO, the CLI) imports it from
 * here only.
 *
 *   model/     what a teacher is and how it is ordered: the registry of fields and filters, sort orders, cursors
 *   sql/       the statements: list and search pages, counts, the bulk writer, single-teacher
 *              writes (updateTeacher, createTeacher, hideTeacher) and the change feed, the sitemap's reads
 *   memory/    what a server keeps: the search index, counts, card and response caches, and
 *              the LiveCatalogue that follows the change feed into them (decision 107)
 *   profiles/  where teachers come from: the generator, the importer, the seed
 */
export * from './model/cursor.js';
export * from './model/registry.js';
export * from './model/sort-orders.js';
export * from './model/teacher-row.js';
export * from './sql/catalogue-writer.js';
export * from './sql/catalogue-feed.js';
export * from './sql/teacher-writes.js';
export * from './sql/teacher-status.js';
export * from './sql/teacher-rating.js';
export * from './sql/seo-repository.js';
export * from './sql/teachers-repository.js';
export * from './memory/catalogue-cache.js';
export * from './memory/catalogue-counts.js';
export * from './memory/catalogue-follower.js';
export * from './memory/live-catalogue.js';
export * from './memory/search-index.js';
export * from './profiles/generator.js';
export * from './profiles/import.js';
export * from './profiles/seed.js';
