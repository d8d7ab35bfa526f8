export { BookTrialButton } from './components/book-trial-button';
