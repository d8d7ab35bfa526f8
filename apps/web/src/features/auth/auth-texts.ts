/** The Login and Registration texts (the original's), shared by the modals and the /login and /register pages. */
export const LOGIN_TEXT =
  'Welcome back! Please enter your credentials to access your account and continue your search for a teacher.';
export const REGISTER_TEXT =
  'Thank you for your interest in our platform! In order to register, we need some information. Please provide us with the following information.';
