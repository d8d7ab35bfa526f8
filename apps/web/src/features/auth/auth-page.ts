/**
 * The auth feature's /login and /register pages, for their lazy page module. Apart from
 * index.ts, which the app shell loads: these bring zod and react-hook-form.
 */
export { AuthPage } from './components/auth-page';
export { formEchoed } from './form-echo-slice';
