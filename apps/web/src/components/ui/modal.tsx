import { useEffect, useId, useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styles from './modal.module.css';

/**
 * Where the modal close icon lives (a real image: the original gives it the alt text
 * `icon_close`). Here, not in icon.tsx: that module is in the forms' chunk, which the
 * catalogue's cards (Book trial lesson's modal) must not pull in with zod (issue 28).
 */
const closeIconSrc = '/icons/close.svg';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  /** px or any CSS length; the panel never exceeds the viewport */
  maxWidth?: number | string;
  maxHeight?: number | string;
  children?: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
const FIELDS = 'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

function focusables(panel: HTMLElement): HTMLElement[] {
  return Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hasAttribute('inert'));
}

/**
 * The browser's Back closes an open modal instead of leaving the page: while modals are
 * open, one history entry (the same URL, the router's state plus a mark) sits on top; Back
 * takes it off and the modals close. A modal closed another way takes the entry off itself,
 * unless another modal took its place in the same update (Login → Registration) or the app
 * moved on (a navigation replaced or covered the entry).
 */
const MARK = 'learnlingoModal';
let openModals = 0;
const marked = () => (window.history.state as Record<string, unknown> | null)?.[MARK] === true;

function useCloseOnBack(onCloseRef: { current: () => void }) {
  useEffect(() => {
    openModals += 1;
    if (!marked()) window.history.pushState({ ...(window.history.state as object | null), [MARK]: true }, '');
    const onPopState = () => {
      if (!marked()) onCloseRef.current();
    };
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('popstate', onPopState);
      openModals -= 1;
      queueMicrotask(() => {
        if (openModals === 0 && marked()) window.history.back();
      });
    };
  }, [onCloseRef]);
}

/**
 * A dialog mounted into #modal-root: closes on Escape, a backdrop click, the close button
 * and the browser's Back; locks page scrolling; keeps focus inside and returns it to the opener.
 */
export function Modal(props: ModalProps) {
  if (!props.open) return null;
  const target = document.getElementById('modal-root') ?? document.body;
  return createPortal(<ModalPanel {...props} />, target);
}

function ModalPanel({ onClose, title, description, maxWidth = 566, maxHeight, children }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const pressedOnBackdrop = useRef(false);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);
  useCloseOnBack(onCloseRef);

  // Scroll lock, first focus, focus return, Escape — for as long as the panel is mounted.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const { body } = document;
    const previousOverflow = body.style.overflow;
    body.style.overflow = 'hidden';

    // First field, else the first control other than Close, else the dialog itself
    // (content that arrives later, such as a lazily loaded form, then takes focus).
    const panel = panelRef.current;
    if (panel) {
      const controls = focusables(panel).filter((el) => !el.dataset.modalClose);
      const first = panel.querySelector<HTMLElement>(FIELDS) ?? controls[0] ?? panel;
      first.focus();
    }

    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);

    return () => {
      document.removeEventListener('keydown', onKeyDown);
      body.style.overflow = previousOverflow;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // Later content (e.g. a lazily loaded form) gets focus while focus still rests on the dialog
  // itself. Only until a control inside has had focus: after that the person is moving
  // through the form, and a message that appears as they leave an empty field (focus is on
  // the body between one field's blur and the next one's focus) must not pull them back.
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel || typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() => {
      if (document.activeElement === panel || document.activeElement === document.body) {
        const first = panel.querySelector<HTMLElement>(FIELDS) ?? focusables(panel).find((el) => !el.dataset.modalClose);
        first?.focus();
      }
    });
    const settle = (event: FocusEvent) => {
      if (event.target !== panel) observer.disconnect();
    };
    observer.observe(panel, { childList: true, subtree: true });
    if (panel.contains(document.activeElement) && document.activeElement !== panel) observer.disconnect();
    panel.addEventListener('focusin', settle);
    return () => {
      panel.removeEventListener('focusin', settle);
      observer.disconnect();
    };
  }, []);

  const onPanelKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = focusables(panelRef.current);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const size: CSSProperties = {
    maxWidth: typeof maxWidth === 'number' ? `${maxWidth}px` : maxWidth,
    ...(maxHeight !== undefined ? { maxHeight: typeof maxHeight === 'number' ? `${maxHeight}px` : maxHeight } : {}),
  };

  return (
    <div
      className={styles.backdrop}
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        pressedOnBackdrop.current = event.target === event.currentTarget;
      }}
      onClick={(event) => {
        if (pressedOnBackdrop.current && event.target === event.currentTarget) onClose();
        pressedOnBackdrop.current = false;
      }}
    >
      <div
        ref={panelRef}
        className={styles.panel}
        style={size}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onKeyDown={onPanelKeyDown}
      >
        {/* The close button stays put while the body scrolls (it used to scroll away at 375 px). */}
        <button type="button" className={styles.close} aria-label="Close" data-modal-close="true" onClick={onClose}>
          <img src={closeIconSrc} alt="icon_close" width={32} height={32} />
        </button>
        <div className={styles.body} data-modal-body="true">
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {description ? (
            <p id={descriptionId} className={styles.description}>
              {description}
            </p>
          ) : null}
          {children}
        </div>
      </div>
    </div>
  );
}
