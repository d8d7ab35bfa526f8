/**
 * The auth feature's account screens (/account, /reset-password), for their lazy pages.
 * Apart from index.ts, which the app shell loads: these bring zod and react-hook-form.
 */
export { ResetPasswordForm, InvalidResetLink } from './components/reset-password-form';
export { EmailReminder, EmailStatus, type ConfirmationReturn } from './components/account/email-reminder';
export { NameForm } from './components/account/name-form';
export { PasswordForm } from './components/account/password-form';
export { OtherDevices } from './components/account/other-devices';
export { DeleteAccount } from './components/account/delete-account';
export { default as accountPageStyles } from './components/account/account.module.css';
export { authApi } from './api/auth-api';
export { formEchoed } from './form-echo-slice';
