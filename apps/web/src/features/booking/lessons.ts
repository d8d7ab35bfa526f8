/**
 * The booking feature's pages (/lessons, /bookings/:token, /teachers/:id/book), for their lazy
 * page module. Apart from index.ts, which the catalogue's pages load: these bring the lessons' API.
 */
export { MyLessons, PrivateBooking } from './components/lessons-view';
export { BookingPage } from './components/booking-page';
export { bookingApi } from './api/booking-api';
