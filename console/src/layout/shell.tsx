import { NavLink, Outlet } from 'react-router';
import { useSession, useSignedIn } from '../auth/session';
import { label, ROLE_LABELS } from '../ui/labels';
import { navigationFor } from './navigation';

/** The signed-in frame: who is signed in, the one navigation list, Sign out, and the page. */
export function Shell() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const { user, org } = session;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Device care</span>
        <nav aria-label="Main">
          <ul>
            {navigationFor(session).map((item) => (
              <li key={item.path}>
                <NavLink to={item.path} end={item.path === '/'}>
                  {item.name}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>{user.email}</span>
          <span>
            {org.name} · {label(ROLE_LABELS, user.role)}
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
