/**
 * `npm start`: the server as it runs in production, whatever NODE_ENV the shell holds —
 * React's production build, the web app's source maps not served, TRUST_PROXY's production
 * rules. With the embedded database nothing more is needed (AUTH_SECRET is generated in
 * DATA_DIR); with DATABASE_URL, AUTH_SECRET is required. `npm run dev` is the development
 * server. Set here rather than as `NODE_ENV=production node …` in package.json, which the
 * Windows shell npm runs scripts in does not understand (decision 103).
 */
process.env.NODE_ENV = 'production';
await import('./server.js');
