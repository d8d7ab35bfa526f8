/** The Login, Registration and Forgot password texts, shared by the modals and the /login, /register and /forgot-password pages. */
export const LOGIN_TEXT =
  'Welcome back! Please enter your credentials to access your account and continue your search for a teacher.';
export const REGISTER_TEXT =
  'Thank you for your interest in our platform! In order to register, we need some information. Please provide us with the following information.';
export const FORGOT_PASSWORD_TEXT =
  'Enter the email you registered with, and we will send you a link to set a new password.';
