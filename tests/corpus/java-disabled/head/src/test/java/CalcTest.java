import org.junit.jupiter.api.Test;

class CalcTest {
  @Disabled("later")
  @Test
  void adds() {
    assert 1 + 2 == 3;
  }
}
