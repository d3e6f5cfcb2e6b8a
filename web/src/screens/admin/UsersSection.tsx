import { useParams } from 'react-router';
import { NotFoundState } from '../../components/states.tsx';
import UserPage from './UserPage.tsx';
import UsersListPage from './UsersListPage.tsx';

/** /admin/users is the list, /admin/users/<id> one user's page. */
export default function UsersSection() {
  const { '*': splat = '' } = useParams();
  const [, id] = splat.split('/');
  if (!id) return <UsersListPage />;
  if (!/^\d+$/.test(id)) return <NotFoundState title="No such user">“{id}” is not a user ID.</NotFoundState>;
  return <UserPage key={id} userId={Number(id)} />;
}
