export const App = () => <p>x</p>;
