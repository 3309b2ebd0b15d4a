import org.junit.jupiter.api.Test;

class CalcTest {
  @Test
  void adds() {
    assumeTrue(isLinux());
    assert 1 + 2 == 3;
  }
}
