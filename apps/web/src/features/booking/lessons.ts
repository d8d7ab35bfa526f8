/**
 * The booking feature's lesson screens (/lessons, /lessons/:token), for their lazy page.
 * Apart from index.ts, which the catalogue's pages load: these bring the lessons' API.
 */
export { MyLessons, PrivateBooking } from './components/lessons-view';
export { bookingApi } from './api/booking-api';
