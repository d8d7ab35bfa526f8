import { lazy, Suspense } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { loadLoginForm, loadRegisterForm } from '../../features/auth';
import { closeModal, selectOpenModal } from '../ui-slice';

const LoginForm = lazy(loadLoginForm);
const RegisterForm = lazy(loadRegisterForm);

export const LOGIN_TEXT =
  'Welcome back! Please enter your credentials to access your account and continue your search for a teacher.';
export const REGISTER_TEXT =
  'Thank you for your interest in our platform! In order to register, we need some information. Please provide us with the following information.';

/** The Login and Registration modals, opened from the header (or by any feature through ui.modal). */
export function AuthModals() {
  const dispatch = useDispatch();
  const modal = useSelector(selectOpenModal);
  const close = () => dispatch(closeModal());
  const loading = <Spinner size={48} label="Loading the form" />;

  return (
    <>
      <Modal open={modal === 'login'} onClose={close} title="Login" description={LOGIN_TEXT} maxHeight="calc(100dvh - 32px)">
        <Suspense fallback={loading}>
          <LoginForm onDone={close} />
        </Suspense>
      </Modal>
      <Modal
        open={modal === 'register'}
        onClose={close}
        title="Registration"
        description={REGISTER_TEXT}
        maxHeight="calc(100dvh - 32px)"
      >
        <Suspense fallback={loading}>
          <RegisterForm onDone={close} />
        </Suspense>
      </Modal>
    </>
  );
}
