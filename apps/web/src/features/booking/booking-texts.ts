/** The booking modal's and the booking page's words (one place: the page says what the modal says). */
export const BOOKING_TITLE = 'Book trial lesson';
export const BOOKING_TEXT =
  'Our experienced tutor will assess your current language level, discuss your learning goals, and tailor the lesson to your specific needs.';
