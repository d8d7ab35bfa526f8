export * from './messages.js';
export * from './errors.js';
export * from './auth.js';
export * from './teachers.js';
export * from './favorites.js';
export * from './booking.js';
export * from './health.js';
export * from './guards.js';
