import { Notifications } from '@mantine/notifications';

/** Where the toasts show; loaded with the first toast (main.tsx), so the first screen does not wait for its transitions. */
export default function ToastsContainer() {
  return <Notifications position="top-center" limit={4} />;
}
