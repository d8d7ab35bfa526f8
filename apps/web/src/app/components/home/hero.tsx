import { ButtonLink } from '../../../components/ui/button-link';
import styles from './home.module.css';

const GREETINGS = ['Hello', 'Bonjour', 'Hola', 'Ciao', 'Hallo', 'Привіт', 'Olá', 'Hej'];

/** Headline, pitch and "Get started"; a light decorative panel instead of a heavy photo. */
export function Hero() {
  return (
    <div className={styles.hero}>
      <div className={styles.intro}>
        <h1 className={styles.headline}>
          Unlock your potential with the best <em className={styles.accent}>language</em> tutors
        </h1>
        <p className={styles.pitch}>
          Embark on an exciting language journey with expert language tutors: elevate your language proficiency to new
          heights by connecting with highly qualified and experienced tutors.
        </p>
        <ButtonLink to="/teachers" className={styles.cta}>
          Get started
        </ButtonLink>
      </div>
      <div className={styles.art} aria-hidden="true">
        <ul className={styles.bubbles}>
          {GREETINGS.map((word) => (
            <li key={word} className={styles.bubble}>
              {word}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
