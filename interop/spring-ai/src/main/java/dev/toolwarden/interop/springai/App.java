package dev.toolwarden.interop.springai;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

import tools.jackson.databind.json.JsonMapper;

/**
 * A plain Spring AI app: one {@link ChatClient} with the article's {@code @Tool} methods, one prompt, one
 * answer. Where the model lives is configuration only ({@code spring.ai.openai.base-url} and
 * {@code spring.ai.openai.api-key}, from the command line or the environment), so the same jar runs
 * against a provider directly or through the toolwarden gateway.
 *
 * <p>With {@code app.session} set, every request of the call carries it as {@code x-toolwarden-session}.
 *
 * <p>Its last line on standard output is one JSON object: {@code answer} and {@code finishReason} (null
 * when the call failed), {@code calls} per tool, and {@code error} ({@code class}, {@code message}) when
 * an exception reached the app. Exit status 0 when the call returned, 1 when it threw.
 */
@SpringBootApplication
public class App {

  public static void main(String[] args) {
    SpringApplication application = new SpringApplication(App.class);
    int status;
    try (ConfigurableApplicationContext context = application.run(args)) {
      status = context.getBean(App.class).run(context.getBean(ChatClient.Builder.class));
    }
    System.exit(status);
  }

  private final String prompt;

  private final String session;

  App(
      @Value("${app.prompt:What is the payment status of order A-1?}") String prompt,
      @Value("${app.session:}") String session) {
    this.prompt = prompt;
    this.session = session;
  }

  int run(ChatClient.Builder builder) {
    OrderTools tools = new OrderTools();
    ChatClient chatClient = builder.defaultTools(tools).build();

    Map<String, Object> line = new LinkedHashMap<>();
    int status = 0;
    String answer = null;
    String finishReason = null;
    Map<String, String> error = null;
    try {
      ChatClient.ChatClientRequestSpec request = chatClient.prompt().user(prompt);
      if (!session.isEmpty()) {
        // One conversation's id for the gateway, on every request of this call: a per-call option of
        // Spring AI's OpenAI model, sent as an HTTP header.
        request =
            request.options(
                OpenAiChatOptions.builder().customHeaders(Map.of("x-toolwarden-session", session)));
      }
      ChatResponse response = request.call().chatResponse();
      Generation generation = response == null ? null : response.getResult();
      if (generation != null) {
        answer = generation.getOutput().getText();
        finishReason = generation.getMetadata().getFinishReason();
      }
    } catch (RuntimeException e) {
      status = 1;
      error = new LinkedHashMap<>();
      error.put("class", e.getClass().getName());
      error.put("message", String.valueOf(e.getMessage()));
    }
    line.put("answer", answer);
    line.put("finishReason", finishReason);
    line.put("calls", tools.callCounts());
    line.put("error", error);
    System.out.println(JsonMapper.builder().build().writeValueAsString(line));
    System.out.flush();
    return status;
  }
}
