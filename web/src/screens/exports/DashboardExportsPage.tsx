import { usePageTitle } from '../../components/usePageTitle.ts';
import { ExportsPanel } from './ExportsPanel.tsx';

/** /security/exports: exports of the projects on the user's own security dashboard. */
export default function DashboardExportsPage() {
  usePageTitle('Exports');
  return <ExportsPanel scope={{ kind: 'dashboard' }} what="your security dashboard" />;
}
