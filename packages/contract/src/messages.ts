/**
 * Every text the product shows to a user for validation and notifications.
 * Word for word from the original specification, odd spellings included.
 */
export const validationMessages = {
  invalidEmail: 'Invalid email',
  emailRequired: "Email can't be is empty",
  passwordTooShort: 'Too short password',
  passwordTooLong: 'Too long password',
  passwordNeedsLetter: 'Must contain at least one letter',
  passwordRequired: "Password can't be is empty",
  nameRequired: 'Name is required field',
  reasonRequired: 'Choose a reason',
  fullNameRequired: 'Full name is required field',
  phoneRequired: 'Phone number is required field',
  phoneInvalid: 'Invalid phone number',
} as const;

export const toastMessages = {
  invalidCredentials: 'Email or password is incorrect',
  emailInUse: 'Email in use',
  signInSuccess: 'Sign in successfully',
  signUpSuccess: 'Signup successfully',
  logoutSuccess: 'Logout successfully',
  needAuth: 'You need to authenticate',
  favoriteAdded: 'Teacher was added',
  favoriteRemoved: 'Successfully deleted',
  bookingSuccess: 'Thanks for you choice',
  networkError: 'Cannot reach the server. Check your connection and try again.',
  serverError: 'Something went wrong on our side. Please try again in a moment.',
  tooManyAttempts: 'Too many attempts. Please wait a minute and try again.',
  favoriteFailed: 'Could not update your favorites. Please try again.',
  bookingFailed: 'Could not send your booking. Please try again.',
} as const;

/** Toast timings from the original (react-hot-toast defaults). */
export const toastLimits = {
  durationMs: 4000,
  successDurationMs: 2000,
  maxVisible: 20,
  removeDelayMs: 1000,
  offsetPx: 20,
  maxWidthPx: 350,
} as const;

/**
 * The texts of lesson times. Here, zod-free, so that a card's Book trial lesson can name them
 * without bringing every schema of the contract (booking.ts) into the catalogue's chunks
 * (issue 28). This module is not in the first load of `/`.
 */
export const lessonMessages = {
  slotRequired: 'Choose a time for your lesson',
  slotTaken: 'Someone has just booked this time. Please choose another one.',
  slotUnavailable: 'This time is not available. Please choose another one.',
  cancelTooLate: 'A lesson can be cancelled only up to 12 hours before it starts.',
  lessonCancelled: 'Your lesson was cancelled',
  cancelFailed: 'Could not cancel the lesson. Please try again.',
  /** a visitor's booking after it is made: the link is in the e-mail */
  checkEmail: 'Check your e-mail to confirm',
  lessonConfirmed: 'Your lesson is confirmed',
  confirmFailed: 'Could not confirm the lesson. Please try again.',
  holdExpired: 'This booking was not confirmed in time, so its time is free again. Please book again.',
} as const;
