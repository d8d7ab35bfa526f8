/**
 * The Forgot password form, for the modal that loads it on demand. Reached only from the
 * Login modal, so it is not preloaded from the header like index.ts's forms.
 */
export { default } from './components/forgot-password-form';
