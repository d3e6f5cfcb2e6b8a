import { useEffect } from 'react';

/** Sets the document title as "<page> · Gatehouse". */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · Gatehouse` : 'Gatehouse';
  }, [title]);
}
